import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type LoggingLevel,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The built CLI, spawned the way an MCP client config would run it. */
export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/**
 * The MCP revision a test speaks: 2025-11-25 (the initialize handshake, sessions) or 2026-07-28 (stateless,
 * an envelope on every request). The test run goes over the MCP tests once in each era (scripts/run-tests.mjs
 * sets TRUECLICK_MCP_ERA for the second pass).
 */
export type Era = '2025-11-25' | '2026-07-28';
export const ERAS: readonly Era[] = ['2025-11-25', '2026-07-28'];
export const ERA: Era = process.env.TRUECLICK_MCP_ERA === '2026-07-28' ? '2026-07-28' : '2025-11-25';

/** A v2 SDK Client that speaks `era` and nothing else (a 2026 pin never falls back to initialize). */
export function newClient(
  era: Era = ERA,
  name = 'trueclick-test',
  capabilities?: ClientCapabilities,
): Client {
  return new Client(
    { name, version: '0.0.0' },
    {
      ...(era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      ...(capabilities ? { capabilities } : {}),
    },
  );
}

export interface McpHarness {
  client: Client;
  era: Era;
  /** A tool call; over 2026-07-28 HTTP it carries the session handle the first navigate returned. */
  call(name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Promise<CallToolResult>;
  /**
   * The client's log level: 2025-11-25 sets it once (`logging/setLevel`); 2026-07-28 has no such method, so
   * every later call names it in `_meta`.
   */
  logLevel(level: LoggingLevel): Promise<void>;
  /** The browser session's handle, once a 2026-07-28 HTTP navigate minted one. */
  session?: string;
  /** What the server wrote on stderr so far (stdio). */
  stderr(): string;
  close(): Promise<void>;
}

/** Tests reach every tool unless they ask for a set (`--caps core` for the default one). */
const withCaps = (args: string[]) => (args.includes('--caps') ? args : ['--caps', 'all', ...args]);

/** The 2026-07-28 request's log level (`_meta`), which replaces logging/setLevel. */
export const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/**
 * Calls that carry the browser session as a 2026-07-28 client over HTTP must: the handle the first
 * browser_navigate returned goes with every later call (unless the test passes its own).
 */
function harness(client: Client, era: Era): McpHarness {
  let level: LoggingLevel | undefined;
  const h: McpHarness = {
    client,
    era,
    call: async (name, args = {}, meta = {}) => {
      const withSession = h.session && !('session' in args) ? { ...args, session: h.session } : args;
      const _meta = { ...(level ? { [LOG_LEVEL]: level } : {}), ...meta };
      const r = (await client.callTool(
        { name, arguments: withSession, ...(Object.keys(_meta).length ? { _meta } : {}) },
        { timeout: 60_000 },
      )) as CallToolResult;
      const minted = (r.structuredContent as { session?: unknown } | undefined)?.session;
      if (typeof minted === 'string') h.session = minted;
      return r;
    },
    stderr: () => '',
    logLevel: async (l) => {
      if (era === '2025-11-25') await client.setLoggingLevel(l);
      else level = l;
    },
    close: async () => {
      await client.close();
    },
  };
  return h;
}

/** A real SDK Client talking to `trueclick serve` over stdio, in the run's era unless told. */
export async function startStdio(
  serveArgs: string[] = [],
  era: Era = ERA,
  capabilities?: ClientCapabilities,
): Promise<McpHarness> {
  const client = newClient(era, undefined, capabilities);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...withCaps(serveArgs)],
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d) => {
    err += String(d);
  });
  await client.connect(transport);
  const h = harness(client, era);
  h.stderr = () => err;
  return h;
}

/** A real SDK Client on a `trueclick serve --http` endpoint, in the run's era unless told. */
export async function connectHttp(
  endpoint: string,
  era: Era = ERA,
  init?: RequestInit,
  capabilities?: ClientCapabilities,
): Promise<McpHarness> {
  const client = newClient(era, undefined, capabilities);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), init ? { requestInit: init } : undefined),
  );
  return harness(client, era);
}

export function text(r: CallToolResult): string {
  return r.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

export function structured<T = Record<string, unknown>>(r: CallToolResult): T {
  if (!r.structuredContent) throw new Error(`no structuredContent in ${JSON.stringify(r).slice(0, 300)}`);
  return r.structuredContent as T;
}

export interface FrameInfo {
  id: string;
  image: { width: number; height: number };
  css: { width: number; height: number };
  scroll: { x: number; y: number };
  devicePixelRatio: number;
  cssPerImagePx: { x: number; y: number };
  url?: string;
}

/** Screenshot and return the frame; the caller converts CSS truth to this image's px like a model would read it. */
export async function frameOf(h: McpHarness, args: Record<string, unknown> = {}): Promise<FrameInfo> {
  const r = await h.call('browser_screenshot', args);
  if (r.isError) throw new Error(text(r));
  return structured<{ frame: FrameInfo }>(r).frame;
}

/** Where a CSS viewport point appears in the frame's image (what a perfect model would answer in px). */
export function imagePx(f: FrameInfo, css: { x: number; y: number }) {
  return { x: (css.x * f.image.width) / f.css.width, y: (css.y * f.image.height) / f.css.height };
}

export interface HttpServerHandle {
  endpoint: string;
  /** The server process's pid (its browsers are its children). */
  pid: number;
  stop(): Promise<void>;
}

/** `trueclick serve --http 0 …` in a child process; resolves with the endpoint it prints. */
export async function startHttpServer(serveArgs: string[]): Promise<HttpServerHandle> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '0', ...withCaps(serveArgs)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  let endpoint = '';
  for (let i = 0; i < 100 && !endpoint && child.exitCode === null; i++) {
    await new Promise((r) => setTimeout(r, 100));
    endpoint = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1] ?? '';
  }
  if (!endpoint) {
    child.kill();
    throw new Error(`trueclick serve --http did not print its endpoint: ${err}`);
  }
  return {
    endpoint,
    pid: child.pid ?? 0,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill();
      await exited;
    },
  };
}
