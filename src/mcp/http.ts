import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { type SessionOptions, TrueclickSession } from '../actions/session.js';
import { createMcpServer } from './server.js';

export interface HttpOptions {
  port: number;
  host?: string;
  /** Bearer token clients must send; required when binding beyond loopback. */
  token?: string;
  /** One browser and one set of frames for every client (e.g. one-shot CLI clients such as the Inspector). */
  shared?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

function hostName(header: string | undefined): string {
  if (!header) return '';
  return header.startsWith('[') ? header.slice(0, header.indexOf(']') + 1) : (header.split(':')[0] ?? '');
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function deny(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

/**
 * Streamable HTTP: one trueclick session (one browser) per MCP session. Guards against DNS rebinding
 * (Host and Origin must be this machine unless told otherwise) and takes an optional bearer token.
 */
export async function serveHttp(options: SessionOptions, http: HttpOptions): Promise<Server> {
  const host = http.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !http.token) {
    throw new Error(
      `Binding ${host} exposes the browser beyond this machine: pass --token (or TRUECLICK_TOKEN) too.`,
    );
  }
  const allowedHosts = new Set([...LOOPBACK, host]);
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; session: TrueclickSession }>();
  const sharedSession = http.shared ? new TrueclickSession(options) : undefined;

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname !== '/mcp') return deny(res, 404, 'Not found: the MCP endpoint is /mcp');
      if (!allowedHosts.has(hostName(req.headers.host)))
        return deny(res, 403, `Host ${req.headers.host} not allowed`);
      const origin = req.headers.origin;
      if (
        origin &&
        !allowedHosts.has(new URL(origin).hostname) &&
        !allowedHosts.has(`[${new URL(origin).hostname}]`)
      ) {
        return deny(res, 403, `Origin ${origin} not allowed`);
      }
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
        if (existing) return await existing.transport.handleRequest(req, res, body);
        if (!isInitializeRequest(body)) return deny(res, 400, 'No valid session: send initialize first');
        const session = sharedSession ?? new TrueclickSession(options);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => {
            sessions.set(sid, { transport, session });
          },
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
          if (session !== sharedSession) void session.close();
        };
        await createMcpServer(session).connect(transport);
        return await transport.handleRequest(req, res, body);
      }
      if (!existing) return deny(res, 400, 'Unknown or missing mcp-session-id');
      return await existing.transport.handleRequest(req, res);
    } catch (err) {
      if (!res.headersSent) deny(res, 500, (err as Error).message);
    }
  });
  server.on('close', () => {
    for (const s of sessions.values()) void s.session.close();
    void sharedSession?.close();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(http.port, host, () => resolve());
  });
  return server;
}
