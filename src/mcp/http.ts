import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type SessionOptions, TrueclickSession } from '../actions/session/session.js';
import { hostName, LOOPBACK, sameSecret } from '../browser/plumbing/local-http.js';
import { SharedBrowser } from '../browser/plumbing/shared-browser.js';
import { Trace, type TraceOptions } from '../trace/trace.js';
import type { Cap } from './caps.js';
import { giveBackMemorySoon } from './give-back.js';
import { createMcpServer } from './server.js';

/** How long an idle keep-alive connection stays open, ms. */
const KEEP_ALIVE_MS = 65_000;

export interface HttpOptions {
  port: number;
  host?: string;
  /** Bearer token clients must send; required when binding beyond loopback. */
  token?: string;
  /** One browser and one set of frames for every client (e.g. one-shot CLI clients such as the Inspector). */
  shared?: boolean;
  /** A browser of its own for each session, instead of an isolated context on one shared browser. */
  browserPerSession?: boolean;
  /** At most this many MCP sessions at once; the next initialize is refused (default 16). */
  maxSessions?: number;
  /** A session nobody used for this long is closed, its context with it (seconds; default 1800, 0 = never). */
  sessionIdleS?: number;
  /** The tool groups offered (default: core). */
  caps?: ReadonlySet<Cap>;
  /** A trace per MCP session, each in a folder of its own under trace.dir. */
  trace?: TraceOptions;
  /**
   * This server's name in a fleet ([a-z0-9-]{1,32}): every session id and handle it mints starts with it, so
   * a proxy in front of several servers routes each call to the server that holds its session.
   */
  instance?: string;
  /**
   * The HMAC key every server of a fleet shares, so that any of them tells a handle another server minted
   * from a forged one (default: random, this process alone).
   */
  fleetSecret?: string;
}

/** A JSON-RPC body larger than this is refused before it is read on: no tool argument needs more. */
export const MAX_BODY_BYTES = 1 << 20;
export const DEFAULT_MAX_SESSIONS = 16;
export const DEFAULT_SESSION_IDLE_S = 1800;

function deny(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code = -32000,
  ) {
    super(message);
  }
}

/** The request's JSON body, within MAX_BODY_BYTES; a refusal (413, 400 parse error) otherwise. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES)
    throw new HttpRefusal(413, `Request body over ${MAX_BODY_BYTES} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpRefusal(413, `Request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpRefusal(400, 'Parse error: the body is not JSON', -32700);
  }
}

/** Whether an Origin header names this machine (a page elsewhere must not drive the browser). */
function originAllowed(origin: string, hosts: Set<string>): boolean {
  try {
    const h = new URL(origin).hostname;
    return hosts.has(h) || hosts.has(`[${h}]`);
  } catch {
    // "null" (a sandboxed frame, a file) and anything unparsable name no host of ours.
    return false;
  }
}

interface Entry {
  transport: StreamableHTTPServerTransport;
  session: TrueclickSession;
  /** When its last request ended (or began, while one runs). */
  lastSeen: number;
  /** Requests under way: a session running a tool call is not idle, however long the call takes. */
  busy: number;
}

/** Runs one POST of a session, which is not idle meanwhile. */
async function busy<T>(e: Entry, work: () => Promise<T>): Promise<T> {
  e.busy++;
  e.lastSeen = Date.now();
  try {
    return await work();
  } finally {
    e.busy--;
    e.lastSeen = Date.now();
  }
}

export interface HttpServer extends Server {
  /** Ends every session (their contexts and browsers) and stops listening. */
  shutdown(): Promise<void>;
}

/**
 * Streamable HTTP: each MCP session is a trueclick session with an isolated context of its own on one shared
 * Chromium (or a browser of its own when asked). Guards against DNS rebinding (Host and Origin must be this
 * machine unless told otherwise), takes an optional bearer token, caps bodies and sessions, and closes idle
 * sessions.
 */
export async function serveHttp(options: SessionOptions, http: HttpOptions): Promise<HttpServer> {
  const host = http.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !http.token) {
    throw new Error(
      `Binding ${host} exposes the browser beyond this machine: pass --token (or TRUECLICK_TOKEN) too.`,
    );
  }
  const allowedHosts = new Set([...LOOPBACK, host]);
  const maxSessions = http.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = (http.sessionIdleS ?? DEFAULT_SESSION_IDLE_S) * 1000;
  const sessions = new Map<string, Entry>();
  /** Sessions being set up (their initialize under way), counted against the cap with the open ones. */
  const starting = new Set<StreamableHTTPServerTransport>();
  const sharedSession = http.shared ? new TrueclickSession(options) : undefined;
  // A user's browser over CDP, or a persistent profile, is one context: each session attaches on its own.
  const sharedBrowser =
    !http.shared &&
    !http.browserPerSession &&
    !options.cdpEndpoint &&
    !options.userDataDir &&
    !options.autoConnect &&
    !options.browserSource
      ? new SharedBrowser(options)
      : undefined;
  const newSession = () =>
    sharedSession ??
    new TrueclickSession(
      sharedBrowser ? { ...options, browserSource: () => sharedBrowser.handle() } : options,
    );

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return deny(res, 404, 'Not found: the MCP endpoint is /mcp');
    if (!allowedHosts.has(hostName(req.headers.host)))
      return deny(res, 403, `Host ${req.headers.host} not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedHosts))
      return deny(res, 403, `Origin ${origin.slice(0, 200)} not allowed`);
    if (http.token) {
      const auth = req.headers.authorization ?? '';
      if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice(7), http.token)) {
        res.setHeader('www-authenticate', 'Bearer');
        return deny(res, 401, 'Missing or wrong bearer token');
      }
    }
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? sessions.get(id) : undefined;
    if (req.method === 'POST') {
      const body = await readJson(req);
      if (existing) return busy(existing, () => existing.transport.handleRequest(req, res, body));
      if (typeof id === 'string')
        return deny(
          res,
          404,
          `Session ${id.slice(0, 64)} is not open (it ended or expired): initialize again`,
        );
      if (!isInitializeRequest(body)) return deny(res, 400, 'No valid session: send initialize first');
      // Sessions still being set up count too: a burst of initialize requests must not slip past the cap.
      if (sessions.size + starting.size >= maxSessions)
        return deny(
          res,
          503,
          `${sessions.size + starting.size} sessions are open, the most this server takes (--max-sessions ${maxSessions}): close one (DELETE /mcp with its mcp-session-id) or wait`,
        );
      return startSession(req, res, body);
    }
    if (!existing) return deny(res, 404, 'Unknown or missing mcp-session-id: initialize first');
    return existing.transport.handleRequest(req, res);
  };

  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const session = newSession();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        starting.delete(transport);
        sessions.set(sid, { transport, session, lastSeen: Date.now(), busy: 0 });
      },
    });
    starting.add(transport);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      if (session !== sharedSession) void session.close().finally(() => giveBackMemorySoon());
    };
    try {
      await createMcpServer(session, http.caps, http.trace ? { trace: new Trace(http.trace) } : {}).connect(
        transport,
      );
      await transport.handleRequest(req, res, body);
    } finally {
      starting.delete(transport);
      // An initialize that did not open a session (a bad one) must not leave its session behind.
      if (!transport.sessionId && session !== sharedSession) await session.close();
    }
  };

  const server = createServer(async (req, res) => {
    try {
      await handle(req, res);
    } catch (err) {
      if (res.headersSent) return;
      if (err instanceof HttpRefusal) return deny(res, err.status, err.message, err.code);
      deny(res, 500, (err as Error).message);
    }
  }) as HttpServer;
  // Node closes an idle keep-alive socket after 5 s; a client that sends on it at that moment (fetch keeps it
  // 4 s, later when its event loop lags under load) gets "fetch failed". Idle sockets stay a minute.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;

  // Sessions nobody used for idleMs end, and their contexts with them.
  const sweep =
    idleMs > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const e of sessions.values())
              if (e.busy === 0 && now - e.lastSeen > idleMs) void e.transport.close();
          },
          Math.min(60_000, Math.max(250, idleMs / 4)),
        )
      : undefined;
  sweep?.unref();

  server.shutdown = async () => {
    if (sweep) clearInterval(sweep);
    // Closing a transport drops its entry from `sessions`: take the list first, so every session's close is
    // awaited here rather than left running.
    const open = [...sessions.values()];
    await Promise.all(open.map((e) => e.transport.close().catch(() => {})));
    await Promise.all(open.map((e) => e.session.close()));
    await sharedSession?.close();
    await sharedBrowser?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(http.port, host, () => resolve());
  });
  return server;
}
