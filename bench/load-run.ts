/**
 * Many agents at once on one `trueclick serve --http`: each MCP session screenshots its own page and clicks
 * its Approve button, over and over. What counts is what the pages recorded (each click a hit posted by
 * the page, labelled with the page's own run), not what trueclick answered. Shared by `npm run load` and
 * test/mcp/load.test.ts.
 */

import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type BrowserServer, chromium } from 'playwright-core';
import type { FixtureServer } from '../fixtures/server.js';
import { findChromium } from '../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../src/browser/plumbing/launch.js';
import { startHttpServer } from '../test/helpers/mcp-client.js';
import { pssMB } from './memory.js';
import { processTree } from './procs.js';
import { type Summary, summarize } from './stats.js';

/** #approve's centre on /approve, CSS px of the 1280×800 viewport (fixtures/server.ts). */
const APPROVE = { x: 1102, y: 636 };

export interface LoadOptions {
  sessions: number;
  cycles: number;
  /** Drive a browser server reached over Playwright's protocol (a stand-in for a browser service). */
  remote?: boolean;
  /** The same load this many times in a row on the one server (a leak grows round by round). */
  rounds?: number;
  /** How long the server may sit idle after the last round before "after" is read (ms, default 3000); the same wait comes before "before". */
  idleMs?: number;
  /** Cycles per session of the warm-up round (default min(25, cycles)). */
  warmupCycles?: number;
  /** Called after each finished cycle (a progress bar). */
  onCycle?: () => void;
}

export interface LoadResult {
  engine: 'local' | 'remote';
  sessions: number;
  cycles: number;
  rounds: number;
  /** Tool calls sent, and those that came back with an error (or never came back). */
  calls: number;
  failedCalls: number;
  /** What the first failed calls answered. */
  errors: string[];
  /** Clicks trueclick reported OK. */
  clicksOk: number;
  /** Clicks the pages recorded, and recorded by a page of another session. */
  recorded: number;
  lost: number;
  mixups: number;
  /** Screenshots that showed another session's page. */
  wrongFrames: number;
  cycleMs: Summary;
  screenshotMs: Summary;
  clickMs: Summary;
  /** Resident memory (Pss) of the trueclick server process (MB): before the sessions, at the peak, after they closed. */
  serverRssMB: { before: number; peak: number; after: number };
  /** Server RSS (MB) after each round, once its sessions closed. */
  serverRssByRound: number[];
  /** Resident memory (Pss) of the browser processes the server started (MB), 0 for a remote engine. */
  browserRssMB: { before: number; peak: number; after: number };
  seconds: number;
}

type Call = (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;

async function open(endpoint: string): Promise<{ call: Call; end(): Promise<void> }> {
  const client = new Client({ name: 'trueclick-load', version: '0' });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint));
  await client.connect(transport);
  return {
    call: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args }, { timeout: 120_000 })) as CallToolResult,
    end: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

interface Frame {
  id: string;
  url?: string;
  image: { width: number; height: number };
  css: { width: number; height: number };
}

interface AgentTally {
  failed: number;
  /** What the failed calls answered (or threw), the first few. */
  errors: string[];
  ok: number;
  wrongFrames: number;
  cycle: number[];
  screenshot: number[];
  click: number[];
}

/** One agent: its own page, then `cycles` of screenshot + guarded click on Approve. */
async function agent(endpoint: string, run: string, url: string, o: LoadOptions): Promise<AgentTally> {
  const t: AgentTally = {
    failed: 0,
    errors: [],
    ok: 0,
    wrongFrames: 0,
    cycle: [],
    screenshot: [],
    click: [],
  };
  const failed = (call: string, r: CallToolResult | Error) => {
    t.failed++;
    const cause =
      r instanceof Error ? (r.cause as { code?: string; message?: string } | undefined) : undefined;
    const what =
      r instanceof Error
        ? `${r.message}${cause ? ` (${cause.code ?? cause.message})` : ''}`
        : JSON.stringify(r.structuredContent ?? r.content);
    if (t.errors.length < 3) t.errors.push(`${call}: ${what.slice(0, 300)}`);
  };
  const s = await open(endpoint);
  try {
    const nav = await s.call('browser_navigate', { url });
    if (nav.isError) throw new Error(`navigate failed: ${JSON.stringify(nav.content).slice(0, 300)}`);
    for (let i = 0; i < o.cycles; i++) {
      const t0 = performance.now();
      const shot = await s.call('browser_screenshot').catch((err: Error) => err);
      const t1 = performance.now();
      const frame =
        shot instanceof Error ? undefined : (shot.structuredContent as { frame?: Frame } | undefined)?.frame;
      if (shot instanceof Error || shot.isError || !frame) {
        failed('browser_screenshot', shot);
        continue;
      }
      if (!frame.url?.includes(`run=${run}`)) t.wrongFrames++;
      const k = { x: frame.image.width / frame.css.width, y: frame.image.height / frame.css.height };
      const click = await s
        .call('browser_click', { frame: frame.id, x: APPROVE.x * k.x, y: APPROVE.y * k.y })
        .catch((err: Error) => err);
      const t2 = performance.now();
      if (click instanceof Error || click.isError) failed('browser_click', click);
      else if ((click.structuredContent as { verdict?: string } | undefined)?.verdict === 'OK') t.ok++;
      t.screenshot.push(t1 - t0);
      t.click.push(t2 - t1);
      t.cycle.push(t2 - t0);
      o.onCycle?.();
    }
  } finally {
    await s.end();
  }
  return t;
}

/** Polls until f() holds or the time is up. */
async function settle(f: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !f() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 100));
}

export async function runLoad(pages: FixtureServer, o: LoadOptions): Promise<LoadResult> {
  const started = Date.now();
  let engine: BrowserServer | undefined;
  const args = ['--max-sessions', String(o.sessions + 1)];
  if (o.remote) {
    engine = await chromium.launchServer({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    args.push('--browser-endpoint', engine.wsEndpoint());
  }
  const server = await startHttpServer(args);
  const browsers = () =>
    processTree(server.pid)
      .map((p) => p.pid)
      .filter((pid) => pid !== server.pid);
  try {
    // A warm-up round as wide as the load (the shared browser starts, the code is compiled, the allocator
    // reaches the size that many sessions need): "before" is read after it, so "after" shows what stays.
    const tag = `load-${process.pid}-${Date.now().toString(36)}`;
    await Promise.all(
      Array.from({ length: o.sessions }, (_, i) =>
        agent(server.endpoint, `${tag}-warm-${i}`, pages.url('/approve', { run: `${tag}-warm-${i}` }), {
          ...o,
          cycles: o.warmupCycles ?? Math.min(25, o.cycles),
          onCycle: () => {},
        }),
      ),
    );
    await new Promise((r) => setTimeout(r, o.idleMs ?? 3000));
    const before = { server: pssMB([server.pid]), browser: pssMB(browsers()) };
    let peak = { ...before };
    const sampler = setInterval(() => {
      peak = {
        server: Math.max(peak.server, pssMB([server.pid])),
        browser: Math.max(peak.browser, pssMB(browsers())),
      };
    }, 250);
    const runs: string[] = [];
    const tallies: AgentTally[] = [];
    const byRound: number[] = [];
    for (let round = 0; round < (o.rounds ?? 1); round++) {
      const these = Array.from({ length: o.sessions }, (_, i) => `${tag}-r${round}-${i}`);
      runs.push(...these);
      tallies.push(
        ...(await Promise.all(
          these.map((run) => agent(server.endpoint, run, pages.url('/approve', { run }), o)),
        )),
      );
      byRound.push(pssMB([server.pid]));
    }
    clearInterval(sampler);
    const expected = runs.length * o.cycles;
    const own = (run: string) => pages.hits({ run, type: 'click' }).length;
    // A hit is posted by the page a moment after its click: wait for the last ones.
    const okClicks = tallies.reduce((n, t) => n + t.ok, 0);
    await settle(() => runs.reduce((n, r) => n + own(r), 0) >= okClicks, 5000);
    const perRun = runs.map(own);
    const recorded = perRun.reduce((a, b) => a + b, 0);
    // A page that recorded more clicks than its session made got another session's.
    const mixups = perRun.reduce((n, c, i) => n + Math.max(0, c - (tallies[i]?.ok ?? 0)), 0);
    // Sessions closed: give the contexts a moment to go.
    await new Promise((r) => setTimeout(r, o.idleMs ?? 3000));
    const after = { server: pssMB([server.pid]), browser: pssMB(browsers()) };
    const all = (k: 'cycle' | 'screenshot' | 'click') => tallies.flatMap((t) => t[k]);
    return {
      engine: o.remote ? 'remote' : 'local',
      sessions: o.sessions,
      cycles: o.cycles,
      calls: 2 * expected,
      failedCalls: tallies.reduce((n, t) => n + t.failed, 0),
      errors: tallies.flatMap((t) => t.errors).slice(0, 5),
      clicksOk: okClicks,
      rounds: o.rounds ?? 1,
      recorded,
      lost: expected - recorded,
      mixups,
      wrongFrames: tallies.reduce((n, t) => n + t.wrongFrames, 0),
      cycleMs: summarize(all('cycle')),
      screenshotMs: summarize(all('screenshot')),
      clickMs: summarize(all('click')),
      serverRssMB: { before: before.server, peak: peak.server, after: after.server },
      serverRssByRound: byRound,
      browserRssMB: { before: before.browser, peak: peak.browser, after: after.browser },
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await server.stop();
    await engine?.close();
  }
}

export function loadReport(r: LoadResult): string {
  const mb = (m: { before: number; peak: number; after: number }) =>
    `${m.before.toFixed(0)} → peak ${m.peak.toFixed(0)} → ${m.after.toFixed(0)} MB (after/before ${(m.after / m.before).toFixed(2)})`;
  const ms = (s: Summary) => `p50 ${s.median.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms`;
  return [
    `${r.engine} engine: ${r.sessions} sessions × ${r.cycles} cycles (screenshot + guarded click)${r.rounds > 1 ? ` × ${r.rounds} rounds` : ''}, ${r.seconds.toFixed(0)} s`,
    `  clicks: ${r.clicksOk} OK of ${r.sessions * r.cycles * r.rounds}; recorded by the pages ${r.recorded}; lost ${r.lost}; cross-session ${r.mixups}; frames of another session's page ${r.wrongFrames}; failed calls ${r.failedCalls} of ${r.calls}`,
    `  cycle ${ms(r.cycleMs)}; screenshot ${ms(r.screenshotMs)}; click ${ms(r.clickMs)}`,
    `  server memory (Pss) ${mb(r.serverRssMB)}${r.rounds > 1 ? `; after each round ${r.serverRssByRound.map((x) => x.toFixed(0)).join(', ')} MB` : ''}`,
    r.engine === 'local' ? `  browser memory (Pss) ${mb(r.browserRssMB)}` : '  browser: remote (not counted)',
    ...r.errors.map((e) => `  failed: ${e}`),
  ].join('\n');
}
