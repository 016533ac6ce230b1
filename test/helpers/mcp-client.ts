import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** The built CLI, spawned the way an MCP client config would run it. */
export const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

export interface McpHarness {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Tests reach every tool unless they ask for a set (`--caps core` for the default one). */
const withCaps = (args: string[]) => (args.includes('--caps') ? args : ['--caps', 'all', ...args]);

/** A real SDK Client talking to `trueclick serve` over stdio. */
export async function startStdio(serveArgs: string[] = []): Promise<McpHarness> {
  const client = new Client({ name: 'trueclick-test', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', ...withCaps(serveArgs)],
    stderr: 'pipe',
  });
  await client.connect(transport);
  return {
    client,
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult,
    close: async () => {
      await client.close();
    },
  };
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
