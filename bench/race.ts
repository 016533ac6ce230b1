/**
 * Race (SPEC S7): on /race?every=3 the rows rotate every few ms. Each click goes to its own point (x, y), so
 * the fixture's recorded hits (which carry clientX/Y) tell which attempt they belong to; the page's own
 * record decides where a click was delivered, not trueclick's report.
 *
 * - trueclick: browser_click {x, y} in CSS px without a frame (hit-test now, in-flight guard, dispatch);
 *   the checked row is the report's hitNow.
 * - awaited check alone: DOM.getNodeForLocation and the node's row read, both awaited, then press + release
 *   (no guard); checked = that row. The bench's own tabs are read directly (window.__hits).
 * - naive dispatch: the row under the point when a screenshot is taken, then the click right after the
 *   capture (zero model time), with no check at all.
 * A "wrong-row delivery" is an attempt whose pointerdown or click the page recorded on another row.
 */
import type { Hit as FixtureHit } from '../fixtures/server.js';
import { captureScale } from '../src/browser/snapshot/capture.js';
import { type CdpTab, DPR, VIEWPORT } from './cdp.js';
import type { Ctx } from './context.js';
import { type CountRow, emptySection, type Section } from './results.js';
import { sleep, summarize } from './stats.js';

const X0 = 42;
const XS = 596; // x in 42..637 stays inside the 600-px rows (40..640)
const SLOTS = [2, 3, 4, 5, 6, 7, 8, 9];

/** The unique CSS point of attempt i: a row centre y (slot k at 100 + 40k) and an x of its own. */
export function racePoint(i: number): { x: number; y: number } {
  const slot = SLOTS[Math.floor(i / XS) % SLOTS.length] as number;
  return { x: X0 + (i % XS), y: 100 + 40 * slot };
}

const keyOf = (x: number, y: number) => `${Math.round(x)},${Math.round(y)}`;

interface Attempt {
  checked: string | null;
  verdict?: string;
}

interface Tally {
  attempts: number;
  wrongRow: number;
  /** Delivered to something that is not a row (the list itself, when a rotation fell between down and up). */
  notARow: number;
  rightRow: number;
  nothing: number;
  /** trueclick only: verdict OK, yet the page saw an event on another row. */
  okButWrong: number;
  /** Attempts with at least one event recorded by the page. */
  delivered: Set<number>;
}

async function settledHits(ctx: Ctx, run: string): Promise<FixtureHit[]> {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const n = ctx.fixture.hits({ run }).length;
    if (n === last) break;
    last = n;
    await sleep(150);
  }
  return ctx.fixture.hits({ run });
}

function tally(attempts: Attempt[], hits: FixtureHit[]): Tally {
  const byPoint = new Map<string, FixtureHit[]>();
  for (const h of hits) {
    if (h.type !== 'pointerdown' && h.type !== 'click') continue;
    const k = keyOf(h.x, h.y);
    byPoint.set(k, [...(byPoint.get(k) ?? []), h]);
  }
  const t: Tally = {
    attempts: attempts.length,
    wrongRow: 0,
    notARow: 0,
    rightRow: 0,
    nothing: 0,
    okButWrong: 0,
    delivered: new Set(),
  };
  attempts.forEach((a, i) => {
    const p = racePoint(i);
    const got = byPoint.get(keyOf(p.x, p.y)) ?? [];
    const rows = got.filter((h) => h.id?.startsWith('race-'));
    const wrong = rows.some((h) => h.id !== a.checked);
    if (wrong) t.wrongRow++;
    if (got.some((h) => !h.id?.startsWith('race-'))) t.notARow++;
    if (got.length > 0) t.delivered.add(i);
    if (got.length === 0) t.nothing++;
    else if (!wrong && rows.length > 0) t.rightRow++;
    if (wrong && a.verdict === 'OK') t.okButWrong++;
  });
  return t;
}

/** The page's own record of trusted events (window.__hits), complete even when a beacon was dropped. */
async function pageHits(tab: CdpTab): Promise<FixtureHit[]> {
  const hits = await tab.evaluate<FixtureHit[]>('window.__hits');
  return hits.filter((h) => h.isTrusted);
}

/** The id of the row a node belongs to (the node may be the button's text). */
async function rowOf(tab: CdpTab, backendNodeId: number): Promise<string | null> {
  const { object } = await tab.cdp.send('DOM.resolveNode', { backendNodeId });
  if (!object.objectId) return null;
  const r = await tab.cdp.send('Runtime.callFunctionOn', {
    objectId: object.objectId,
    functionDeclaration:
      'function () { const e = this.nodeType === 1 ? this : this.parentElement; return e ? e.id : null; }',
    returnByValue: true,
  });
  void tab.cdp.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  return (r.result.value as string | null) ?? null;
}

async function hitTest(tab: CdpTab, x: number, y: number): Promise<number | null> {
  try {
    const r = await tab.cdp.send('DOM.getNodeForLocation', {
      x,
      y,
      includeUserAgentShadowDOM: false,
      ignorePointerEventsNone: false,
    });
    return r.backendNodeId;
  } catch {
    return null;
  }
}

function row(key: string, thing: string, t: Tally, target: boolean, extra = ''): CountRow {
  return {
    key,
    thing,
    runs: t.attempts,
    wrong: t.wrongRow,
    detail: `${t.rightRow} on the checked row, ${t.wrongRow} on another row, ${t.notARow} on no row, ${t.nothing} not delivered${extra}`,
    target: target ? '0 wrong-row deliveries' : '(baseline)',
    met: target ? t.wrongRow === 0 : null,
  };
}

export async function measureRace(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const n = ctx.opts.raceClicks;
  const naiveN = Math.min(ctx.opts.raceNaiveClicks, n);
  const url = (run: string) => ctx.fixture.url('/race', { every: 3, run });
  const tc = await ctx.trueclick();
  const browser = await ctx.cdp();
  const tab = await browser.newTab();

  // trueclick, guarded.
  ctx.log(`race: ${n} guarded clicks through trueclick on /race?every=3`);
  await tc.navigate(url('race-trueclick'));
  const guarded: Attempt[] = [];
  const verdicts: Record<string, number> = {};
  const exposure: number[] = [];
  for (let i = 0; i < n; i++) {
    const p = racePoint(i);
    const r = await tc.click({ x: p.x, y: p.y });
    verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
    if (r.exposureMs !== undefined) exposure.push(r.exposureMs);
    guarded.push({ checked: r.hitNow?.id ?? null, verdict: r.verdict });
  }

  // The awaited check alone: like trueclick's check (hit-test, read what is there, then dispatch), unguarded.
  ctx.log(`race: ${n} awaited-check clicks over bare CDP`);
  await tab.navigate(url('race-awaited'));
  const awaited: Attempt[] = [];
  for (let i = 0; i < n; i++) {
    const p = racePoint(i);
    const node = await hitTest(tab, p.x, p.y);
    const checked = node === null ? null : await rowOf(tab, node);
    await tab.click(p.x, p.y);
    awaited.push({ checked });
  }
  const awaitedHits = await pageHits(tab);

  // Naive: the row seen at capture, clicked right after the capture.
  ctx.log(`race: ${naiveN} naive clicks (capture, then click, no check)`);
  await tab.navigate(url('race-naive'));
  const naive: Attempt[] = [];
  const trueclickScale = captureScale(VIEWPORT.width * DPR, VIEWPORT.height * DPR, {});
  for (let i = 0; i < naiveN; i++) {
    const p = racePoint(i);
    const node = await hitTest(tab, p.x, p.y);
    const seen = node === null ? null : await rowOf(tab, node);
    await tab.captureScaled(trueclickScale);
    await tab.click(p.x, p.y);
    naive.push({ checked: seen });
  }
  const naiveHits = await pageHits(tab);
  await tab.page.close().catch(() => {});

  const tg = tally(guarded, await settledHits(ctx, 'race-trueclick'));
  const ta = tally(awaited, awaitedHits);
  const tn = tally(naive, naiveHits);
  // trueclick's browser is not the bench's to read: its hits come through the fixture's beacon. An OK click
  // the page never reported could hide a wrong delivery, so such clicks are counted and shown.
  const unconfirmed = guarded.filter((a, i) => a.verdict === 'OK' && !tg.delivered.has(i)).length;
  if (unconfirmed > 0) ctx.warn(`race: ${unconfirmed} OK clicks have no hit recorded by the page's beacon`);
  if (tg.okButWrong > 0)
    ctx.warn(`race: ${tg.okButWrong} clicks had verdict OK but the page saw them on another row`);
  const vs = Object.entries(verdicts)
    .map(([v, c]) => `${v} ${c}`)
    .join(', ');
  out.counts.push(
    row(
      'race.trueclick',
      'race: trueclick guarded browser_click',
      tg,
      true,
      `; verdicts: ${vs}; OK yet wrong row: ${tg.okButWrong}; OK without a recorded hit: ${unconfirmed}`,
    ),
    row('race.awaited', 'race: awaited check alone (hit-test, then dispatch)', ta, false),
    row('race.naive', 'race: naive dispatch (row seen at capture, click after it)', tn, false),
  );
  if (exposure.length > 0) {
    out.gaps.push({
      key: 'exposure.race',
      thing: `hit-test → first trusted event (exposureMs), ${exposure.length} race clicks`,
      summary: summarize(exposure),
    });
  }
  const plain = ({ delivered: _d, ...rest }: Tally) => rest;
  out.raw = {
    race: { trueclick: { ...plain(tg), verdicts, unconfirmed }, awaited: plain(ta), naive: plain(tn) },
  };
  return out;
}
