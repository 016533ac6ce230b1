import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import { type SessionOptions, TrueclickSession } from '../actions/session/session.js';
import { Trace, type TraceOptions } from '../trace/trace.js';
import { type ApprovalServing, approvalOf } from './approval.js';
import type { Cap } from './caps.js';
import { createMcpServer, oneSession } from './server.js';

export interface StdioServer {
  /** Ends the MCP server, the browser session and the approval page (the process stays up). */
  close(): Promise<void>;
}

/**
 * One process, one client, one browser session: no handle is needed in either era. The SDK's entry decides
 * the era from the opening message (initialize for 2025-11-25, an enveloped request for 2026-07-28).
 * `onGone` is told when the client went (its stdin ended, our stdout broke); ending the process, on that or
 * on a signal, is the caller's (src/cli/shutdown.ts), which bounds close().
 */
export function serveStdio(
  options: SessionOptions,
  onGone: (why: string) => void,
  caps?: ReadonlySet<Cap>,
  trace?: TraceOptions,
  serving: ApprovalServing = {},
): StdioServer {
  const session = new TrueclickSession(options);
  const source = oneSession(session, trace ? new Trace(trace) : undefined);
  const approval = approvalOf(options, undefined, serving);
  const served = serveBothEras(() => createMcpServer(source, caps, approval), {
    // A client that closed our stdout is gone: that is the end of the session, not an error to report.
    onerror: (err) => {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE' || /EPIPE/.test(err.message))
        onGone('the client closed stdout');
      else process.stderr.write(`trueclick: ${err.message}\n`);
    },
  });
  process.stdin.on('end', () => onGone('the client closed stdin'));
  process.stdin.on('close', () => onGone('the client closed stdin'));
  // A client that closed our stdout is gone: writing to it fails with EPIPE; end cleanly, not with a crash.
  process.stdout.on('error', () => onGone('the client closed stdout'));
  let closing: Promise<void> | undefined;
  return {
    close: () => {
      closing ??= (async () => {
        await served.close().catch(() => {});
        await session.close();
        await serving.page?.close().catch(() => {});
      })();
      return closing;
    },
  };
}
