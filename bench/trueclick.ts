/** trueclick as an agent runs it: `trueclick serve --device-scale-factor 2` over stdio MCP. */
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { DPR } from './cdp.js';
import { imageOf, type McpServer, startMcp, textOf } from './mcp.js';

/** The built CLI (this file runs from dist/bench/). */
export const CLI = fileURLToPath(new URL('../src/cli/main.js', import.meta.url));

export interface Frame {
  id: string;
  image: { width: number; height: number };
  css: { width: number; height: number };
  scroll: { x: number; y: number };
  devicePixelRatio: number;
}

export interface Hit {
  tag: string;
  text: string;
  id?: string;
  context?: string;
  nodeId: number;
}

export interface Report {
  verdict: string;
  message: string;
  dispatched: { x: number; y: number } | null;
  hitNow: Hit | null;
  hitAtCapture: Hit | null;
  landed?: Hit | null;
  exposureMs?: number;
  guard?: { firstInLine: boolean; blocked: number; delivered: number };
}

export interface Trueclick {
  mcp: McpServer;
  navigate(url: string): Promise<void>;
  screenshot(args?: {
    marks?: boolean;
  }): Promise<{ frame: Frame; image: ReturnType<typeof imageOf>; marks: number }>;
  /** Waits until a click could be checked against the frame (its snapshot is read): a browser_point on it. */
  ready(frame: string): Promise<void>;
  /** browser_click with any arguments; returns the report whether or not the click was refused. */
  click(args: Record<string, unknown>): Promise<Report>;
  close(): Promise<void>;
}

/** Where a CSS viewport point appears in the frame's image: what a perfect model answers in px. */
export function imagePx(f: Frame, css: { x: number; y: number }) {
  return { x: (css.x * f.image.width) / f.css.width, y: (css.y * f.image.height) / f.css.height };
}

function report(r: CallToolResult): Report {
  const s = r.structuredContent as Report | undefined;
  if (!s || typeof s.verdict !== 'string')
    throw new Error(`browser_click gave no report: ${textOf(r).slice(0, 400)}`);
  return s;
}

export async function startTrueclick(name = 'trueclick', extra: string[] = []): Promise<Trueclick> {
  const mcp = await startMcp(name, process.execPath, [
    CLI,
    'serve',
    '--caps',
    'all',
    '--device-scale-factor',
    String(DPR),
    ...extra,
  ]);
  let tracked = false;
  return {
    mcp,
    async navigate(url) {
      await mcp.ok('browser_navigate', { url });
      if (!tracked) {
        mcp.track();
        tracked = true;
      }
    },
    async screenshot(args = {}) {
      const r = await mcp.ok('browser_screenshot', args);
      const s = r.structuredContent as { frame: Frame; marks?: unknown[] };
      return { frame: s.frame, image: imageOf(r), marks: s.marks?.length ?? 0 };
    },
    async ready(frame) {
      await mcp.ok('browser_point', { frame, x: 10, y: 10 });
    },
    async click(args) {
      return report(await mcp.call('browser_click', args));
    },
    close: () => mcp.close(),
  };
}
