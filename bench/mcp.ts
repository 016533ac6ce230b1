/** An MCP server over stdio, driven by the SDK Client the way an agent's host runs it. */

import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { base64ImageSize } from './cdp.js';
import { onCleanup, TrackedTree } from './procs.js';

export interface McpServer {
  name: string;
  client: Client;
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Call and fail loudly on an error result. */
  ok(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Re-read the server's process tree (after it launched its browser). */
  track(): void;
  stderrTail(): string;
  close(): Promise<void>;
}

export async function startMcp(
  name: string,
  command: string,
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<McpServer> {
  const client = new Client({ name: 'trueclick-bench', version: '0.0.0' });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command,
    args,
    env: { ...env, ...(opts.env ?? {}) },
    stderr: 'pipe',
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  // An unread stderr pipe fills up and stalls the server: keep a tail for error messages.
  let tail = '';
  transport.stderr?.on('data', (d: Buffer) => {
    tail = (tail + d.toString('utf8')).slice(-4000);
  });
  let tree: TrackedTree | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    tree?.refresh();
    await client.close().catch(() => {});
    if (tree && !(await tree.settle(3000))) {
      const n = tree.kill('SIGTERM');
      if (!(await tree.settle(1500))) tree.kill('SIGKILL');
      if (n > 0) process.stderr.write(`bench: ${name} left ${n} process(es) behind; ended them\n`);
    }
    unregister();
  };
  const unregister = onCleanup(close);
  try {
    await client.connect(transport);
  } catch (err) {
    await close();
    throw new Error(`${name} did not start: ${(err as Error).message}\n${tail}`);
  }
  if (transport.pid) tree = new TrackedTree(transport.pid);

  const call = async (tool: string, a: Record<string, unknown> = {}) =>
    (await client.callTool({ name: tool, arguments: a }, { timeout: 60_000 })) as CallToolResult;
  return {
    name,
    client,
    call,
    async ok(tool, a = {}) {
      const r = await call(tool, a);
      if (r.isError) throw new Error(`${name} ${tool} failed: ${textOf(r).slice(0, 500)}`);
      return r;
    },
    track: () => tree?.refresh(),
    stderrTail: () => tail,
    close,
  };
}

export function textOf(r: CallToolResult): string {
  return r.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** The first image of a result: its PNG size (IHDR) and base64 length. */
export function imageOf(r: CallToolResult): { width: number; height: number; base64Bytes: number } | null {
  const img = r.content.find(
    (c): c is { type: 'image'; data: string; mimeType: string } => c.type === 'image',
  );
  return img ? base64ImageSize(img.data) : null;
}
