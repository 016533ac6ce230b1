import { timingSafeEqual } from 'node:crypto';

// What a server on this machine checks of a request before it answers: that the Host header names this
// machine (DNS rebinding), and a secret compared in constant time. The MCP HTTP server and the extension's
// relay both answer only that way.

/** Names of this machine, as a Host header gives them or as a bind address is written. */
export const LOOPBACK: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** The host name of a Host header, without its port (an IPv6 address keeps its brackets). */
export function hostName(header: string | undefined): string {
  if (!header) return '';
  return header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : (header.split(':')[0] ?? '');
}

/** Whether a secret the client sent is the expected one, in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
