import type { IncomingHttpHeaders } from 'node:http';
import { SESSION_HEADER } from './handles.js';

// SEP-2243: a tools/call whose `session` argument a client mirrored into Mcp-Param-Session must carry the
// same value in both, or a proxy that routed on the header sent it to the wrong server. The SDK's entry
// checks this only for tools registered through McpServer; trueclick's tools are served by the low-level
// Server (it owns argument checking), so the check is made here, with the SDK's wording and shape.

const HEADER = `mcp-param-${SESSION_HEADER.toLowerCase()}`;
const SENTINEL = /^=\?base64\?((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)\?=$/;

/** A header value as the client meant it: plain, or the Base64 sentinel form; undefined when malformed. */
function decoded(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const b64 = SENTINEL.exec(value)?.[1];
  if (b64 === undefined) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(b64, 'base64'));
  } catch {
    return undefined;
  }
}

/** The JSON-RPC error (HTTP 400, HeaderMismatch -32020) for a tools/call whose header and body disagree. */
export function sessionHeaderMismatch(
  body: unknown,
  headers: IncomingHttpHeaders,
): { id: unknown; error: { code: number; message: string; data: unknown } } | undefined {
  const msg = body as { id?: unknown; method?: unknown; params?: { arguments?: { session?: unknown } } };
  if (!msg || typeof msg !== 'object' || msg.method !== 'tools/call') return undefined;
  const session = msg.params?.arguments?.session;
  if (typeof session !== 'string') return undefined;
  const raw = headers[HEADER];
  const header = `Mcp-Param-${SESSION_HEADER}`;
  const wrong = (problem: string) => ({
    id: msg.id ?? null,
    error: {
      code: -32020,
      message: `Bad Request: the request headers and body disagree: ${problem}`,
      data: { mismatch: { header, body: 'session' } },
    },
  });
  if (typeof raw !== 'string') return wrong(`the body carries session but the ${header} header is absent`);
  const value = decoded(raw);
  if (value === undefined) return wrong(`the ${header} header carries an invalid Base64 sentinel value`);
  if (value !== session) return wrong(`the ${header} header names another session than the body`);
  return undefined;
}
