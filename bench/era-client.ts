/**
 * An MCP client of either era over streamable HTTP, as the load run, the fleet test and the browser-server
 * test drive a server: 2025-11-25 (the initialize handshake, a session the server keeps under
 * Mcp-Session-Id) or 2026-07-28 (stateless: the browser session is a handle the first browser_navigate
 * mints, passed back as `session` in every call and mirrored by the SDK into an Mcp-Param-Session header).
 */
import { type CallToolResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Era, newClient } from '../test/helpers/mcp-client.js';

export type { Era };

export interface EraClient {
  era: Era;
  /** The handle of the browser session (2026-07-28), once a browser_navigate minted it. */
  readonly handle: string | undefined;
  /** The MCP session id (2025-11-25). */
  readonly sessionId: string | undefined;
  /** The browser session's name for the proxy: its handle, else its session id. */
  readonly routeKey: string | undefined;
  /** A tool call; on 2026-07-28 it carries the session's handle once there is one. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Drops the handle: the next browser_navigate starts a new browser session (what SESSION_GONE asks). */
  forget(): void;
  end(): Promise<void>;
}

/** Tool calls may wait on a page for a while; a fleet's proxy gives them 120 s too. */
const CALL_TIMEOUT_MS = 120_000;

export async function openEraClient(endpoint: string, era: Era): Promise<EraClient> {
  const client = newClient(era, 'trueclick-fleet');
  const transport = new StreamableHTTPClientTransport(new URL(endpoint));
  await client.connect(transport);
  // The SDK mirrors `session` into its header from the tool definitions it holds: list them first.
  if (era === '2026-07-28') await client.listTools();
  let handle: string | undefined;
  return {
    era,
    get handle() {
      return handle;
    },
    get sessionId() {
      return transport.sessionId;
    },
    get routeKey() {
      return handle ?? transport.sessionId;
    },
    async call(name, args = {}) {
      const withHandle = handle !== undefined && era === '2026-07-28' ? { session: handle, ...args } : args;
      const r = (await client.callTool(
        { name, arguments: withHandle },
        { timeout: CALL_TIMEOUT_MS },
      )) as CallToolResult;
      const minted = (r.structuredContent as { session?: unknown } | undefined)?.session;
      if (era === '2026-07-28' && handle === undefined && typeof minted === 'string') handle = minted;
      return r;
    },
    forget() {
      handle = undefined;
    },
    async end() {
      if (era === '2025-11-25') await transport.terminateSession().catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

/**
 * Which of `instances` a session id or handle names: the handle's name before its '.', the session id's
 * before its '-' (names may hold '-' themselves, so the longest name that fits wins).
 */
export function instanceOf(key: string | undefined, instances: readonly string[]): string | undefined {
  if (!key) return undefined;
  return [...instances]
    .sort((a, b) => b.length - a.length)
    .find((name) => key.startsWith(`${name}.`) || key.startsWith(`${name}-`));
}
