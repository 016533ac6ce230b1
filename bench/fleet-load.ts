/**
 * `npm run load -- --fleet 3`: many agents of both MCP eras on servers behind HAProxy (bench/fleet.ts), each
 * screenshotting its own page and clicking its Approve, over and over. With three servers one is killed
 * halfway: its agents must be told their session is gone (and nothing else of theirs may go astray), the
 * others must lose nothing, and once it is back new sessions must work, on it too. What counts is what the
 * pages recorded (each click a hit labelled with the page's own run) and what the proxy logged.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { FixtureServer } from '../fixtures/server.js';
import { type Era, type EraClient, instanceOf, openEraClient } from './era-client.js';
import { type Fleet, startFleet } from './fleet.js';
import { pssMB } from './memory.js';
import { type Summary, summarize } from './stats.js';

/** #approve's centre on /approve, CSS px of the 1280×800 viewport (fixtures/server.ts). */
const APPROVE = { x: 1102, y: 636 };
const VICTIM = 'tc2';
/** Agents that open their session at the same moment. */
const ARRIVING = 4;

export interface FleetLoadOptions {
  servers: 1 | 3;
  sessions: number;
  cycles: number;
  /** With 3 servers: sessions opened after the killed server is back (at least one lands on it). */
  newSessions?: number;
  onCycle?: () => void;
}

export interface FleetLoadResult {
  servers: 1 | 3;
  sessions: number;
  cycles: number;
  /** Sessions per instance and era, as their handles and session ids name them. */
  placed: Record<string, Record<Era, number>>;
  clicksOk: number;
  /** Clicks the pages recorded; lost = told OK but not recorded; crossed = recorded beyond what was sent. */
  recorded: number;
  lost: number;
  crossed: number;
  /** Screenshots that showed another session's page. */
  wrongFrames: number;
  /** Calls of sessions on live servers that failed, and what the first ones said. */
  failedCalls: number;
  errors: string[];
  /** Sessions on the killed server; those whose last answer said the session is gone and what to do. */
  gone: number;
  toldClearly: number;
  /** What the others were told instead. */
  unclear: string[];
  /** Calls under way at the kill (an HTTP error from the proxy, then the clear answer on the next call). */
  inFlightAtKill: number;
  /** New sessions after the restart: opened, on the restarted server, with every cycle OK. */
  after: { sessions: number; onRestarted: number; ok: number };
  /** Every call that named a session went to the instance its name starts with (HAProxy's log). */
  misrouted: number;
  cycleMs: Summary;
  /** Pss of the servers and their browsers (MB): idle before the sessions, at the peak, and per session. */
  memoryMB: { idle: number; peak: number; perSession: number };
  seconds: number;
}

/** SESSION_GONE's own words (2026-07-28), or the refusal of a session id the fleet no longer holds (2025-11-25, a 404). */
export function saysGone(era: Era, what: string): boolean {
  return era === '2026-07-28'
    ? /SESSION_GONE/.test(what) && /gone/.test(what) && /browser_navigate .*no session/.test(what)
    : /is not open/.test(what) &&
        /lived on a server that is gone/.test(what) &&
        /initialize again/.test(what);
}

interface Tally {
  run: string;
  era: Era;
  instance: string;
  ok: number;
  /** Clicks sent whose answer never came (the server died under them): the page may have recorded them. */
  unanswered: number;
  wrongFrames: number;
  failed: number;
  errors: string[];
  cycles: number[];
  /** The answer that ended a session on the killed server. */
  goneWith?: string;
  inFlight: boolean;
}

const said = (r: CallToolResult | Error) =>
  r instanceof Error ? r.message : JSON.stringify(r.structuredContent ?? r.content).slice(0, 400);

async function openAgent(fleet: Fleet, pages: FixtureServer, era: Era, run: string) {
  const client = await openEraClient(fleet.endpoint, era);
  const nav = await client.call('browser_navigate', { url: pages.url('/approve', { run }) });
  if (nav.isError) throw new Error(`navigate failed: ${said(nav)}`);
  const instance = instanceOf(client.routeKey, fleet.names) ?? '?';
  const t: Tally = {
    run,
    era,
    instance,
    ok: 0,
    unanswered: 0,
    wrongFrames: 0,
    failed: 0,
    errors: [],
    cycles: [],
    inFlight: false,
  };
  return { client, t };
}

/**
 * `cycles` of screenshot + guarded click. A failure on the killed server ends the session: a thrown HTTP
 * error (the call under way at the kill) is followed by one more try, as an agent would, whose answer must
 * say the session is gone.
 */
async function drive(
  client: EraClient,
  t: Tally,
  cycles: number,
  killed: () => boolean,
  onCycle: () => void,
): Promise<void> {
  const call = async (name: string, args?: Record<string, unknown>) =>
    client.call(name, args).catch((err: Error) => err);
  const ended = async (r: CallToolResult | Error, name: string, args?: Record<string, unknown>) => {
    if (!killed() || t.instance !== VICTIM) return false;
    if (r instanceof Error && !saysGone(t.era, r.message)) {
      t.inFlight = true;
      r = await call(name, args);
    }
    t.goneWith = said(r);
    return true;
  };
  for (let i = 0; i < cycles; i++) {
    const t0 = performance.now();
    const shot = await call('browser_screenshot');
    const frame =
      shot instanceof Error
        ? undefined
        : (
            shot.structuredContent as {
              frame?: { id: string; url?: string; image: { width: number }; css: { width: number } };
            }
          )?.frame;
    if (shot instanceof Error || shot.isError || !frame) {
      if (await ended(shot, 'browser_screenshot')) return;
      t.failed++;
      if (t.errors.length < 3) t.errors.push(`browser_screenshot: ${said(shot)}`);
      continue;
    }
    if (!frame.url?.includes(`run=${t.run}`)) t.wrongFrames++;
    const k = frame.image.width / frame.css.width;
    const args = { frame: frame.id, x: APPROVE.x * k, y: APPROVE.y * k };
    const click = await call('browser_click', args);
    if (click instanceof Error || click.isError) {
      if (click instanceof Error) t.unanswered++;
      if (await ended(click, 'browser_click', args)) return;
      t.failed++;
      if (t.errors.length < 3) t.errors.push(`browser_click: ${said(click)}`);
      continue;
    }
    if ((click.structuredContent as { verdict?: string }).verdict === 'OK') t.ok++;
    t.cycles.push(performance.now() - t0);
    onCycle();
  }
}

export async function runFleetLoad(pages: FixtureServer, o: FleetLoadOptions): Promise<FleetLoadResult> {
  const started = Date.now();
  const fleet = await startFleet({
    servers: o.servers,
    serveArgs: ['--max-sessions', String(o.sessions + 8)],
  });
  const tag = `fleet${o.servers}-${process.pid}-${Date.now().toString(36)}`;
  try {
    const idle = pssMB(fleet.pids());
    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, pssMB(fleet.pids()));
    }, 250);
    // Agents arrive a few at a time, not all in one millisecond: 24 first navigations at once (three
    // browsers starting on two cores) time out at 30 s, which says nothing about the fleet.
    const agents: Awaited<ReturnType<typeof openAgent>>[] = [];
    for (let i = 0; i < o.sessions; i += ARRIVING)
      agents.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(ARRIVING, o.sessions - i) }, (_, j) =>
            openAgent(fleet, pages, (i + j) % 2 ? '2025-11-25' : '2026-07-28', `${tag}-${i + j}`),
          ),
        )),
      );
    let done = 0;
    let killedAt: number | undefined;
    const half = Math.floor((o.sessions * o.cycles) / 2);
    let killing: Promise<void> | undefined;
    const onCycle = () => {
      o.onCycle?.();
      if (++done === half && o.servers === 3) {
        killedAt = Date.now();
        killing = fleet.kill(VICTIM);
      }
    };
    await Promise.all(
      agents.map((a) => drive(a.client, a.t, o.cycles, () => killedAt !== undefined, onCycle)),
    );
    clearInterval(sampler);
    await killing;
    const tallies = agents.map((a) => a.t);

    const fresh: typeof agents = [];
    if (o.servers === 3) {
      await fleet.restart(VICTIM);
      // Round robin decides where a new session lands: open them one by one until one is on the restarted server.
      for (let i = 0; i < 12; i++) {
        if (i >= (o.newSessions ?? 4) && fresh.some((a) => a.t.instance === VICTIM)) break;
        fresh.push(await openAgent(fleet, pages, i % 2 ? '2025-11-25' : '2026-07-28', `${tag}-new-${i}`));
      }
      await Promise.all(
        fresh.map((a) =>
          drive(
            a.client,
            a.t,
            5,
            () => false,
            () => {},
          ),
        ),
      );
    }
    await Promise.all([...agents, ...fresh].map((a) => a.client.end()));

    const all = [...tallies, ...fresh.map((a) => a.t)];
    const own = (t: Tally) => pages.hits({ run: t.run, type: 'click' }).length;
    // A hit is posted by the page a moment after its click: wait for the last ones.
    for (const end = Date.now() + 5000; Date.now() < end && all.some((t) => own(t) < t.ok); )
      await new Promise((r) => setTimeout(r, 100));
    const lost = all.reduce((n, t) => n + Math.max(0, t.ok - own(t)), 0);
    const crossed = all.reduce((n, t) => n + Math.max(0, own(t) - t.ok - t.unanswered), 0);
    const victims = tallies.filter((t) => t.instance === VICTIM && killedAt !== undefined);
    const live = tallies.filter((t) => !victims.includes(t));
    const placed: FleetLoadResult['placed'] = {};
    for (const t of tallies) {
      placed[t.instance] ??= { '2025-11-25': 0, '2026-07-28': 0 };
      (placed[t.instance] as Record<Era, number>)[t.era]++;
    }
    const misrouted = fleet.proxyLog().filter((l) => {
      const named = instanceOf(l.handle ?? l.sessionId, fleet.names);
      return named !== undefined && l.server !== named && !(named === VICTIM && killedAt !== undefined);
    }).length;
    return {
      servers: o.servers,
      sessions: o.sessions,
      cycles: o.cycles,
      placed,
      clicksOk: tallies.reduce((n, t) => n + t.ok, 0),
      recorded: tallies.reduce((n, t) => n + own(t), 0),
      lost,
      crossed,
      wrongFrames: all.reduce((n, t) => n + t.wrongFrames, 0),
      failedCalls: [...live, ...fresh.map((a) => a.t)].reduce((n, t) => n + t.failed, 0),
      errors: all.flatMap((t) => t.errors).slice(0, 5),
      gone: victims.length,
      toldClearly: victims.filter((t) => t.goneWith && saysGone(t.era, t.goneWith)).length,
      unclear: victims
        .filter((t) => !(t.goneWith && saysGone(t.era, t.goneWith)))
        .map(
          (t) =>
            `${t.era} ${t.run}: ${t.goneWith ?? `no answer said so (${t.ok} clicks OK, ${t.failed} failed)`}`,
        )
        .slice(0, 5),
      inFlightAtKill: victims.filter((t) => t.inFlight).length,
      after: {
        sessions: fresh.length,
        onRestarted: fresh.filter((a) => a.t.instance === VICTIM).length,
        ok: fresh.filter((a) => a.t.ok === 5 && a.t.failed === 0 && own(a.t) === 5).length,
      },
      misrouted,
      cycleMs: summarize(tallies.flatMap((t) => t.cycles)),
      memoryMB: { idle, peak, perSession: peak / o.sessions },
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await fleet.stop();
  }
}

export function fleetReport(r: FleetLoadResult): string {
  const placed = Object.entries(r.placed)
    .sort()
    .map(([n, e]) => `${n} ${e['2026-07-28']}+${e['2025-11-25']}`)
    .join(', ');
  const lines = [
    `${r.servers} server${r.servers > 1 ? 's' : ''} behind HAProxy: ${r.sessions} sessions (half 2026-07-28 with handles, half 2025-11-25) × ${r.cycles} cycles (screenshot + guarded click), ${r.seconds.toFixed(0)} s`,
    `  sessions by instance (2026 + 2025): ${placed}`,
    `  clicks: ${r.clicksOk} OK; recorded by their own pages ${r.recorded}; lost ${r.lost}; crossed ${r.crossed}; frames of another session's page ${r.wrongFrames}; failed calls on live servers ${r.failedCalls}; calls routed to another instance than named ${r.misrouted}`,
    `  cycle p50 ${r.cycleMs.median.toFixed(0)} ms, p99 ${r.cycleMs.p99.toFixed(0)} ms; memory (Pss, servers + browsers) idle ${r.memoryMB.idle.toFixed(0)} MB, peak ${r.memoryMB.peak.toFixed(0)} MB = ${r.memoryMB.perSession.toFixed(0)} MB per session`,
  ];
  if (r.servers === 3)
    lines.push(
      `  ${VICTIM} killed halfway: ${r.gone} sessions gone, ${r.toldClearly} told clearly (${r.inFlightAtKill} had a call under way: a proxy error, then the clear answer)`,
      `  after the restart: ${r.after.ok} of ${r.after.sessions} new sessions did all 5 cycles, ${r.after.onRestarted} of them on ${VICTIM}`,
      ...r.unclear.map((u) => `  not told clearly: ${u}`),
    );
  lines.push(...r.errors.map((e) => `  failed: ${e}`));
  return lines.join('\n');
}

/** Whether the run kept every promise: nothing lost, crossed or misrouted; the gone told; the new ones working. */
export function fleetHeld(r: FleetLoadResult): boolean {
  const base =
    r.lost === 0 && r.crossed === 0 && r.wrongFrames === 0 && r.failedCalls === 0 && r.misrouted === 0;
  if (r.servers === 1) return base && r.clicksOk === r.sessions * r.cycles;
  return (
    base &&
    r.gone > 0 &&
    r.toldClearly === r.gone &&
    r.after.onRestarted > 0 &&
    r.after.ok === r.after.sessions
  );
}
