import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import { createMcpHandler, isInitializeRequest, isLegacyRequest } from '@modelcontextprotocol/server';
import { type SessionOptions, TrueclickSession } from '../actions/session/session.js';
import { hostName, LOOPBACK, sameSecret } from '../browser/plumbing/local-http.js';
import { SharedBrowser } from '../browser/plumbing/shared-browser.js';
import { Trace, type TraceOptions } from '../trace/trace.js';
import { type ApprovalServing, approvalOf } from './approval.js';
import type { Cap } from './caps.js';
import { giveBackMemorySoon } from './give-back.js';
import { checkInstance, type HandleKeys, randomInstance } from './handles.js';
import { sessionHeaderMismatch } from './param-header.js';
import { createMcpServer, oneSession, type SessionSource } from './server.js';
import { HandleSessions, SessionTable } from './session-table.js';

/** How long an idle keep-alive connection stays open, ms. */
const KEEP_ALIVE_MS = 65_000;

export interface HttpOptions {
  port: number;
  host?: string;
  /**
   * Bearer token clients must send; required when binding beyond loopback. Several, comma-separated, give
   * each caller a token of its own: a session handle minted for one token is refused with another.
   */
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
  /** This server's name in a fleet: its session handles and 2025 session ids start with it (default: random). */
  instance?: string;
  /** The key the servers of a fleet share to sign session handles (default: random, this server alone). */
  fleetSecret?: string;
  /** `--approve`: the local approval page and how long a call waits on it. */
  approval?: ApprovalServing;
}

/** A JSON-RPC body larger than this is refused before it is read on: no tool argument needs more. */
export const MAX_BODY_BYTES = 1 << 20;
export const DEFAULT_MAX_SESSIONS = 16;
export const DEFAULT_SESSION_IDLE_S = 1800;

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function deny(res: ServerResponse, status: number, message: string, code = -32000): void {
  answer(res, status, { jsonrpc: '2.0', error: { code, message }, id: null });
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

export interface HttpServer extends Server {
  /** Ends every session (their contexts and browsers) and stops listening. */
  shutdown(): Promise<void>;
  /** Its name in a fleet, which its session handles and 2025 session ids start with. */
  instance: string;
}

/** The bearer tokens a server takes: one, or several comma-separated (a token per caller). */
const tokensOf = (token: string | undefined) => (token ?? '').split(',').filter(Boolean);

/**
 * Streamable HTTP in both MCP eras on one endpoint. A 2025-11-25 client opens an MCP session (initialize,
 * Mcp-Session-Id) that is one trueclick session; a 2026-07-28 client is served per request, and its browser
 * session is named by a signed handle in the tool arguments. Each session is an isolated context on one
 * shared Chromium (or a browser of its own when asked). Guards against DNS rebinding (Host and Origin must be
 * this machine unless told otherwise), takes an optional bearer token, caps bodies and sessions, and closes
 * idle sessions.
 */
export async function serveHttp(options: SessionOptions, http: HttpOptions): Promise<HttpServer> {
  const host = http.host ?? '127.0.0.1';
  const tokens = tokensOf(http.token);
  if (!LOOPBACK.has(host) && tokens.length === 0) {
    throw new Error(
      `Binding ${host} exposes the browser beyond this machine: pass --token (or TRUECLICK_TOKEN) too.`,
    );
  }
  const allowedHosts = new Set([...LOOPBACK, host]);
  const keys: HandleKeys = {
    instance: checkInstance(http.instance ?? randomInstance()),
    secret: http.fleetSecret ?? randomBytes(32).toString('base64url'),
  };
  const table = new SessionTable({
    maxSessions: http.maxSessions ?? DEFAULT_MAX_SESSIONS,
    idleMs: (http.sessionIdleS ?? DEFAULT_SESSION_IDLE_S) * 1000,
  });
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
    new TrueclickSession(
      sharedBrowser ? { ...options, browserSource: () => sharedBrowser.handle() } : options,
    );
  const newTrace = () => (http.trace ? new Trace(http.trace) : undefined);
  const onerror = (err: Error) => process.stderr.write(`trueclick: ${err.message}\n`);

  // 2026-07-28: a server per request (the SDK's entry validates the envelope, the Mcp-* headers, the removed
  // methods), over the sessions the handles name; --shared keeps one session for every caller, no handle.
  const modernSource: SessionSource = sharedSession
    ? oneSession(sharedSession, newTrace())
    : new HandleSessions(table, keys, () => {
        const trace = newTrace();
        return { session: newSession(), ...(trace ? { trace } : {}) };
      });
  const approval = approvalOf(options, keys.secret, http.approval);
  const modern = createMcpHandler(() => createMcpServer(modernSource, http.caps, approval), {
    legacy: 'reject',
    onerror,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  const handles = modernSource.handles;
  const serveModern = toNodeHandler(modern, { onerror, maxRequestBodySize: MAX_BODY_BYTES });
  const sharedTrace = sharedSession ? newTrace() : undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return deny(res, 404, 'Not found: the MCP endpoint is /mcp');
    if (!allowedHosts.has(hostName(req.headers.host)))
      return deny(res, 403, `Host ${req.headers.host} not allowed`);
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedHosts))
      return deny(res, 403, `Origin ${origin.slice(0, 200)} not allowed`);
    if (tokens.length) {
      const auth = req.headers.authorization ?? '';
      const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
      if (!tokens.some((t) => sameSecret(token, t))) {
        res.setHeader('www-authenticate', 'Bearer');
        return deny(res, 401, 'Missing or wrong bearer token');
      }
      // The SDK hands it to the tool call, which binds session handles to it.
      (req as IncomingMessage & { auth?: unknown }).auth = { token, clientId: 'bearer', scopes: [] };
    }
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) {
      const mismatch = handles ? sessionHeaderMismatch(body, req.headers) : undefined;
      if (mismatch) return answer(res, 400, { jsonrpc: '2.0', ...mismatch });
      return serveModern(req, res, body);
    }
    return serveLegacy(req, res, body);
  };

  /** 2025-11-25: sessionful Streamable HTTP, one trueclick session per MCP session. */
  const serveLegacy = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const id = req.headers['mcp-session-id'];
    const existing = typeof id === 'string' ? table.get(id) : undefined;
    const transport = existing && transports.get(id as string);
    if (req.method === 'POST') {
      if (existing && transport) {
        const done = table.use(id as string);
        return transport.handleRequest(req, res, body).finally(done);
      }
      if (typeof id === 'string')
        return deny(
          res,
          404,
          `Session ${id.slice(0, 64)} is not open (it ended, expired, or lived on a server that is gone): initialize again`,
        );
      if (!isInitializeRequest(body)) return deny(res, 400, 'No valid session: send initialize first');
      // Sessions still being set up count too: a burst of initialize requests must not slip past the cap.
      const full = table.room();
      if (full) return deny(res, 503, `${full.problem} ${full.hint}`);
      return startSession(req, res, body);
    }
    if (!transport) return deny(res, 404, 'Unknown or missing mcp-session-id: initialize first');
    return transport.handleRequest(req, res);
  };

  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const startSession = async (req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const session = sharedSession ?? newSession();
    const trace = sharedSession ? sharedTrace : newTrace();
    const release = table.reserve();
    // One close, awaited by whoever ends the session: the transport's onclose starts it when end() closes the
    // transport, and a second session.close() returns at once (its handle already taken): end() did not wait
    // for a browser of the session's own (--browser-per-session, --user-data-dir), and the server exited while
    // it was still closing.
    let closing: Promise<void> | undefined;
    const closeSession = () => (closing ??= session === sharedSession ? Promise.resolve() : session.close());
    const transport = new NodeStreamableHTTPServerTransport({
      // The proxy in front of a fleet routes a 2025 session by this prefix.
      sessionIdGenerator: () => `${keys.instance}-${randomUUID()}`,
      onsessioninitialized: (sid) => {
        release();
        transports.set(sid, transport);
        table.add(sid, {
          session,
          ...(trace ? { trace } : {}),
          end: async () => {
            await transport.close().catch(() => {});
            await closeSession();
          },
        });
      },
    });
    transport.onclose = () => {
      const sid = transport.sessionId;
      if (sid) {
        transports.delete(sid);
        table.drop(sid);
      }
      if (session !== sharedSession) void closeSession().finally(() => giveBackMemorySoon());
    };
    try {
      await createMcpServer(oneSession(session, trace), http.caps, approval).connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      release();
      // An initialize that did not open a session (a bad one) must not leave its session behind.
      if (!transport.sessionId) await closeSession();
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
  server.instance = keys.instance;
  // Node closes an idle keep-alive socket after 5 s; a client that sends on it at that moment (fetch keeps it
  // 4 s, later when its event loop lags under load) gets "fetch failed". Idle sockets stay a minute.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;

  let shuttingDown: Promise<void> | undefined;
  server.shutdown = () => {
    shuttingDown ??= (async () => {
      // No new connection from here on: a session opened now would start a browser while the others close.
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      await modern.close().catch(() => {});
      await table.closeAll();
      await sharedSession?.close();
      await sharedBrowser?.close();
      await http.approval?.page?.close().catch(() => {});
      // Idle keep-alive connections and open SSE streams would hold close() until they end.
      server.closeAllConnections();
      await stopped;
    })();
    return shuttingDown;
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(http.port, host, () => resolve());
  });
  return server;
}
