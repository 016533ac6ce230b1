/**
 * Stale guard (SPEC S7): the ticket queue re-sorts its rows 310 ms after load and shows a toast over the
 * top-right at 520 ms. Each run: load, screenshot, pick slot i's Delete, wait the model's 900 ms, click.
 * trueclick clicks by {frame, x, y}; the naive pipeline dispatches a raw CDP click at the same CSS point. The
 * fixture's hits (extra.deleted) say which ticket a click deleted; the intended ticket is the one the
 * screenshot showed in that slot (trueclick: the report's hitAtCapture; naive: read at capture).
 * Runs are spread over parallel lanes (each its own trueclick server and its own naive tab) to keep it short.
 */
import type { Hit as FixtureHit } from '../fixtures/server.js';
import type { CdpTab } from './cdp.js';
import type { Ctx } from './context.js';
import { emptySection, type Section } from './results.js';
import { sleep } from './stats.js';
import { imagePx, startTrueclick, type Trueclick } from './trueclick.js';

const RESORT_MS = 310;
const TOAST_MS = 520;
const SLOTS = 8;
/** Slot i's Delete button centre, CSS px (fixtures/server.ts). */
const deletePoint = (slot: number) => ({ x: 1180, y: 148 + 56 * slot });

interface Run {
  run: string;
  slot: number;
  /** Ticket whose Delete the screenshot showed at the point ("toast" if the toast was already there). */
  intended: string | null;
  verdict?: string;
  /** Whether the screenshot already showed the re-sorted queue (the page moved before capture). */
  lateFrame?: boolean;
}

const INITIAL = (slot: number) => `TCK-${7741 + slot}`;

async function trueclickRun(tc: Trueclick, ctx: Ctx, i: number): Promise<Run> {
  const run = `stale-tc-${i}`;
  const slot = i % SLOTS;
  await tc.navigate(ctx.fixture.url('/tickets', { resort: RESORT_MS, toast: TOAST_MS, run }));
  const { frame } = await tc.screenshot();
  const seenAt = performance.now();
  const p = imagePx(frame, deletePoint(slot));
  await sleep(ctx.opts.modelDelayMs - (performance.now() - seenAt));
  const r = await tc.click({ frame: frame.id, x: p.x, y: p.y });
  const at = r.hitAtCapture;
  const intended = at?.id?.startsWith('del-')
    ? at.id.slice(4)
    : at?.id === 'toast-close'
      ? 'toast'
      : (at?.id ?? null);
  return { run, slot, intended, verdict: r.verdict, lateFrame: intended !== INITIAL(slot) };
}

async function naiveRun(tab: CdpTab, ctx: Ctx, i: number): Promise<Run> {
  const run = `stale-naive-${i}`;
  const slot = i % SLOTS;
  const pt = deletePoint(slot);
  await tab.navigate(ctx.fixture.url('/tickets', { resort: RESORT_MS, toast: TOAST_MS, run }));
  const look = `(() => { const e = document.elementFromPoint(${pt.x}, ${pt.y}); const b = e && e.closest('button'); return b ? (b.dataset.ticket || (b.id === 'toast-close' ? 'toast' : b.id)) : null; })()`;
  const [, intended] = await Promise.all([tab.captureFull(), tab.evaluate<string | null>(look)]);
  const seenAt = performance.now();
  await sleep(ctx.opts.modelDelayMs - (performance.now() - seenAt));
  await tab.click(pt.x, pt.y);
  return { run, slot, intended, lateFrame: intended !== INITIAL(slot) };
}

interface Outcome {
  runs: number;
  wrongRow: number;
  rightRow: number;
  /** Clicks that landed on something else (the toast's Dismiss). */
  other: number;
  none: number;
  lateFrames: number;
}

function outcome(runs: Run[], hits: FixtureHit[]): Outcome {
  const o: Outcome = { runs: runs.length, wrongRow: 0, rightRow: 0, other: 0, none: 0, lateFrames: 0 };
  for (const r of runs) {
    if (r.lateFrame) o.lateFrames++;
    const clicks = hits.filter((h) => h.run === r.run && h.type === 'click' && h.isTrusted);
    const deleted = clicks.map((h) => h.extra?.deleted).filter((d): d is string => typeof d === 'string');
    if (deleted.some((d) => d !== r.intended)) o.wrongRow++;
    else if (deleted.length > 0) o.rightRow++;
    else if (clicks.length > 0) o.other++;
    else o.none++;
  }
  return o;
}

export async function measureStale(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const { staleRuns: n, staleLanes } = ctx.opts;
  const lanes = Math.max(1, Math.min(staleLanes, n));
  ctx.log(
    `stale: ${n} runs (resort ${RESORT_MS} ms, toast ${TOAST_MS} ms, model delay ${ctx.opts.modelDelayMs} ms) in ${lanes} lane(s), trueclick and naive side by side`,
  );
  const first = await ctx.trueclick();
  const extra = await Promise.all(
    Array.from({ length: lanes - 1 }, (_, k) => startTrueclick(`trueclick stale lane ${k + 2}`)),
  );
  const servers = [first, ...extra];
  const browser = await ctx.cdp();
  const tabs = await Promise.all(Array.from({ length: lanes }, () => browser.newTab()));
  const tcRuns: Run[] = [];
  const naiveRuns: Run[] = [];
  try {
    await Promise.all(
      servers.flatMap((tc, lane) => [
        (async () => {
          for (let i = lane; i < n; i += lanes) tcRuns.push(await trueclickRun(tc, ctx, i));
        })(),
        (async () => {
          for (let i = lane; i < n; i += lanes) naiveRuns.push(await naiveRun(tabs[lane] as CdpTab, ctx, i));
        })(),
      ]),
    );
  } finally {
    await Promise.allSettled([...extra.map((s) => s.close()), ...tabs.map((t) => t.page.close())]);
  }
  await sleep(500);
  const hits = ctx.fixture.hits({ page: 'tickets' });
  const tc = outcome(tcRuns, hits);
  const naive = outcome(naiveRuns, hits);
  const verdicts: Record<string, number> = {};
  for (const r of tcRuns) verdicts[r.verdict ?? '?'] = (verdicts[r.verdict ?? '?'] ?? 0) + 1;
  // Every run whose frame showed the queue before it moved must be refused as STALE_TARGET or COVERED.
  const earlyRefusedOther = tcRuns.filter(
    (r) => !r.lateFrame && r.verdict !== 'STALE_TARGET' && r.verdict !== 'COVERED',
  ).length;
  const vs = Object.entries(verdicts)
    .map(([v, c]) => `${v} ${c}`)
    .join(', ');
  out.counts.push(
    {
      key: 'stale.trueclick',
      thing: `stale guard: trueclick browser_click, ${ctx.opts.modelDelayMs} ms after the screenshot`,
      runs: n,
      wrong: tc.wrongRow,
      detail: `verdicts: ${vs}; deletions of the ticket seen ${tc.rightRow}, other clicks ${tc.other}, nothing clicked ${tc.none}; frames already re-sorted ${tc.lateFrames}; pre-move frames not refused as STALE_TARGET/COVERED ${earlyRefusedOther}`,
      target: '0 wrong-row deletions, every miss STALE_TARGET/COVERED',
      met: tc.wrongRow === 0 && earlyRefusedOther === 0,
    },
    {
      key: 'stale.naive',
      thing: `stale guard: naive raw CDP click at the same CSS point`,
      runs: n,
      wrong: naive.wrongRow,
      detail: `deletions of the ticket seen ${naive.rightRow}, clicks on the toast ${naive.other}, nothing ${naive.none}; frames already re-sorted ${naive.lateFrames}`,
      target: '(baseline: shown deleting wrong rows)',
      met: null,
    },
  );
  out.raw = { stale: { trueclick: { ...tc, verdicts, earlyRefusedOther }, naive } };
  return out;
}
