/**
 * The two rates of a guard on living pages (SPEC S7), counted from the server's own action log on the
 * living corpus (fixtures/realweb: jobs, prices, people, sheet, feed, ionic):
 * - false refusals: the page only lived between the screenshot and the click (durations and prices
 *   ticked, progress rose, avatars arrived, the carousel turned, labels answered the pointer), so the
 *   record the frame showed was still under the point; a refusal there is a failure;
 * - clicks on another record: the page really moved (re-sorted, rows prepended, values rotated into the
 *   same inputs); any action the server records for another record than the one seen is a failure.
 * The record seen is read from the page at capture (the row around the point, through shadow roots). A
 * naive click (Playwright's mouse at the same CSS point, after the same wait) is counted beside it, and on the
 * moved pages a trueclick click with `follow: true` (issue 33: it acts on the record seen where it is now,
 * or refuses as before), whose "right" is the record seen acted on.
 * trueclick runs as the library session the MCP tools call; its click time is printed per page.
 * A click whose page did not get ready (a slow load on a busy machine) is tried once more on a fresh load;
 * a second failure is counted apart ("not run"), with a warning, and does not fail the section.
 */
import { chromium, type Page } from 'playwright-core';
import type { Action } from '../fixtures/realweb/actions.js';
import type { FixtureServer } from '../fixtures/server.js';
import { TrueclickSession } from '../src/actions/session/session.js';
import { CHROMIUM_ARGS } from '../src/browser/plumbing/launch.js';
import { CHROMIUM } from './cdp.js';
import type { Ctx } from './context.js';
import { keyAt, open, ROWS, rowTarget, SUBJECTS, type Subject } from './living-pages.js';
import { emptySection, type Section } from './results.js';
import { sleep, summarize } from './stats.js';

/** What a model takes to answer, about: long enough for every living thing on the pages to change. */
const THINK_MS = 600;

/**
 * One click's preparation (load, ready, the target read), tried twice on fresh runs: a page that did not
 * get ready on a loaded machine is no measure of the guard. null after two failures, with a warning.
 */
async function prepared<T>(ctx: Ctx, what: string, nextRun: () => string, prep: (run: string) => Promise<T>) {
  for (let k = 0; k < 2; k++) {
    const run = nextRun();
    try {
      return { run, value: await prep(run) };
    } catch (err) {
      const why = (err as Error).message.split('\n')[0];
      if (k === 0) ctx.log(`living: ${what}: ${why}; once more on a fresh load`);
      else ctx.warn(`living: ${what} not run, its page was not ready twice (a slow machine): ${why}`);
    }
  }
  return null;
}

/** How long after a click the server's log is read for what it did (a link's request is on its way). */
const RECORD_MS = 300;

/**
 * Waits until the server recorded an action for the run, or RECORD_MS: a click that acted is counted as
 * soon as its request arrived; one that did nothing waits the whole time, so a late action still counts.
 */
const recorded = (srv: FixtureServer, run: string) =>
  srv.waitForActions(1, { run, timeoutMs: RECORD_MS }).catch(() => []);

const move = (page: Page, name: string) =>
  page.evaluate((n) => (window as unknown as { rw: Record<string, () => Promise<unknown>> }).rw[n]?.(), name);

interface Tally {
  runs: number;
  /** Clicks not run: their page did not get ready on two loads (counted apart, with a warning). */
  notRun: number;
  /** Clicks that threw (the page busy past trueclick's time limits) with nothing recorded: apart too. */
  threw: number;
  refused: number;
  right: number;
  wrong: number;
  none: number;
  ms: number[];
  /** What the pixel guard took of an OK click, where pixels decided. */
  pixelMs: number[];
  /** `follow`: clicks answered as followed to the record's new place, and refusals saying why not. */
  followed: number;
  notFollowed: string[];
}
const tally = (): Tally => ({
  runs: 0,
  notRun: 0,
  threw: 0,
  refused: 0,
  right: 0,
  wrong: 0,
  none: 0,
  ms: [],
  pixelMs: [],
  followed: 0,
  notFollowed: [],
});

function count(t: Tally, acts: Action[], act: string, intended: string | null, refused: boolean) {
  t.runs++;
  if (refused) t.refused++;
  const ids = acts.filter((a) => a.do === act).map((a) => a.id);
  if (ids.some((id) => id !== intended)) t.wrong++;
  else if (ids.length > 0) t.right++;
  else t.none++;
}

const KINDS = ['still', 'moved', 'follow', 'naiveStill', 'naiveMoved'] as const;
/**
 * The follow lane clicks half as many moved records as the plain one (issue 33's figure, not one of the
 * SPEC's ≥ 200): in the whole bench the living pages' clicks are its longest part.
 */
const followPer = (per: number) => Math.ceil(per / 2);
/** follow: the moved clicks again, through trueclick with `follow: true`. */
type Tallies = Record<(typeof KINDS)[number], Tally>;
const tallies = (): Tallies => ({
  still: tally(),
  moved: tally(),
  follow: tally(),
  naiveStill: tally(),
  naiveMoved: tally(),
});

/** One lane's tools: a trueclick session (its own browser) and a naive Playwright page. */
interface Lane {
  tc: TrueclickSession;
  naive: Page;
}

/** One kind of click on one page of the corpus: the unit the lanes take from their shared queue. */
interface Pass {
  j: number;
  kind: (typeof KINDS)[number];
}

/**
 * The naive clicks are the baseline beside each count, not one of them, and they barely spread: in the
 * 1 216 s whole run of 500a960, 210 of 210 still ones acted on the record seen and 192 of 210 moved ones on
 * another. A third as many tell the same, and their page loads were a fifth of the bench's CPU.
 */
const naivePer = (per: number) => Math.ceil(per / 3);

/** How many clicks a pass makes: `per`, half as many with follow, a third as many naive. */
const passClicks = (kind: Pass['kind'], per: number) =>
  kind === 'follow' ? followPer(per) : kind === 'still' || kind === 'moved' ? per : naivePer(per);

/**
 * One pass: `per` clicks of one kind on one page (still or moved through trueclick, moved with
 * `follow: true`, or naive at the same CSS point), each on a fresh load.
 */
async function livingPass(
  ctx: Ctx,
  lane: Lane,
  s: Subject,
  kind: Pass['kind'],
  per: number,
  nextRun: () => number,
  bucket: Tally,
): Promise<void> {
  const { tc, naive } = lane;
  const srv = ctx.fixture;
  const name = s.name ?? s.page;
  const runId = () => `living-${name}-${nextRun()}`;
  ctx.log(`living: ${name}, ${passClicks(kind, per)} ${kind} clicks`);
  const trueclickClick = async (moved: boolean, follow: boolean, i: number) => {
    const what = `${name} ${follow ? 'follow' : moved ? 'moved' : 'still'} click ${i}`;
    const ready = await prepared(ctx, what, runId, async (run) => {
      const page = await open(
        async () => (await tc.driver()).page,
        srv,
        s,
        run,
        async (u) => {
          await tc.navigate(u);
        },
      );
      const p = await rowTarget(page, s, i % ROWS);
      const shot = await tc.screenshot();
      const intended = await keyAt(page, s, p);
      return { page, p, shot, intended };
    });
    if (!ready) {
      bucket.notRun++;
      return;
    }
    const { run } = ready;
    const { page, p, shot, intended } = ready.value;
    const seenAt = performance.now();
    if (moved) await move(page, s.move).catch(() => {});
    await sleep(THINK_MS - (performance.now() - seenAt));
    const { image, css } = shot.frame.geometry;
    const t0 = performance.now();
    const r = await tc
      .click({
        frame: shot.frame.id,
        x: (p.x * image.width) / css.width,
        y: (p.y * image.height) / css.height,
        ...(follow ? { follow: true } : {}),
      })
      .catch((err: Error) => err);
    const ms = performance.now() - t0;
    if (r instanceof Error) {
      // A page busy past the click's own time limits (a loaded machine): counted apart when the server
      // recorded nothing; whatever it recorded for the run counts as any click's would (a wrong record too).
      ctx.warn(`living: ${what}: the click threw: ${r.message.split('\n')[0]}`);
      await sleep(300);
      const acts = srv.actions({ run });
      if (acts.length === 0) bucket.threw++;
      else count(bucket, acts, s.act, intended, true);
      return;
    }
    await recorded(srv, run);
    if (r.verdict === 'OK') {
      bucket.ms.push(ms);
      if (r.pixels?.costMs !== undefined) bucket.pixelMs.push(r.pixels.costMs);
    } else if (!moved) ctx.log(`living: still ${name} refused: ${r.message.slice(0, 300)}`);
    if (r.followed) bucket.followed++;
    if (follow && r.verdict !== 'OK')
      bucket.notFollowed.push(
        `${r.verdict}${r.notFollowed ? `: ${r.notFollowed.why}` : `, no notFollowed: ${r.message.slice(0, 200)}`}`,
      );
    count(bucket, srv.actions({ run }), s.act, intended, r.verdict !== 'OK');
  };
  const naiveClick = async (moved: boolean, i: number) => {
    const ready = await prepared(
      ctx,
      `${name} naive ${moved ? 'moved' : 'still'} click ${i}`,
      runId,
      async (run) => {
        await open(
          async () => naive,
          srv,
          s,
          run,
          async (u) => {
            await naive.goto(u);
          },
        );
        const p = await rowTarget(naive, s, i % ROWS);
        // The image is not read, only its moment kept. At CSS scale, as Playwright MCP takes it by default:
        // a full-resolution PNG at DPR 2 costs 150–250 ms more of the two cores, 420 times a whole run.
        await naive.screenshot({ scale: 'css' });
        return { p, intended: await keyAt(naive, s, p) };
      },
    );
    if (!ready) {
      bucket.notRun++;
      return;
    }
    const { run } = ready;
    const { p, intended } = ready.value;
    const seenAt = performance.now();
    if (moved) await move(naive, s.move).catch(() => {});
    await sleep(THINK_MS - (performance.now() - seenAt));
    await naive.mouse
      .click(p.x, p.y)
      .catch((err: Error) => ctx.warn(`living: ${name} naive click threw: ${err.message.split('\n')[0]}`));
    // A link click navigates: let it commit (5 s on a busy machine), or it cuts the next run's load short
    // ("interrupted by another navigation"). Only a click that opened nothing waits the whole time.
    await naive.waitForURL(/\/rw\/act/, { timeout: 5000 }).catch(() => {});
    count(bucket, srv.actions({ run }), s.act, intended, false);
  };
  const n = passClicks(kind, per);
  if (kind === 'naiveStill' || kind === 'naiveMoved') {
    for (let i = 0; i < n; i++) await naiveClick(kind === 'naiveMoved', i);
    await naive.goto('about:blank').catch(() => {});
  } else {
    for (let i = 0; i < n; i++) await trueclickClick(kind !== 'still', kind === 'follow', i);
    // A living page left open renders on while the lane's next pass runs, and the machine is shared.
    await tc.navigate('about:blank').catch(() => {});
  }
}

/**
 * The counts (bench/run.ts runs this beside the other count sections). The passes (one kind of click on
 * one page) go in lanes (--living-lanes), each lane its own trueclick session (its own browser) and its own
 * naive page: a click is mostly the model's think and the wait after it, and lanes overlap those waits.
 * More lanes than three did not help here: at five, 90 clicks took 82 s against 72 s (the two cores render
 * the living pages).
 */
export async function measureLiving(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const per = Math.max(1, Math.ceil(ctx.opts.livingClicks / SUBJECTS.length));
  const lanes = Math.max(1, ctx.opts.livingLanes);
  const naiveBrowser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  const raw: Record<string, unknown> = {};
  const all = tallies();
  const bySubject: Tallies[] = [];
  let n = 0;
  // The passes in one queue, the pages' trueclick passes first (their clicks take longest): a lane that
  // got quick passes takes more of them, and no lane is left with a whole page at the end.
  const queue: Pass[] = [];
  for (const kind of KINDS) for (const j of SUBJECTS.keys()) queue.push({ j, kind });
  for (const j of SUBJECTS.keys()) bySubject[j] = tallies();
  let next = 0;
  try {
    // Every lane ends before the browsers close, even when one failed; the first failure is the section's.
    const ended = await Promise.allSettled(
      Array.from({ length: lanes }, async () => {
        const tc = new TrueclickSession({ deviceScaleFactor: 2 });
        try {
          const naive = await naiveBrowser.newPage({
            viewport: { width: 1280, height: 800 },
            deviceScaleFactor: 2,
          });
          for (let q = next++; q < queue.length; q = next++) {
            const { j, kind } = queue[q] as Pass;
            const s = SUBJECTS[j] as Subject;
            const t = (bySubject[j] as Tallies)[kind];
            // A pass that breaks off (its browser hung on a loaded machine) keeps what it counted; the rest
            // of its clicks are not run, with a warning, and the other passes go on.
            await livingPass(ctx, { tc, naive }, s, kind, per, () => ++n, t).catch((err: Error) => {
              t.notRun += Math.max(0, passClicks(kind, per) - t.runs - t.notRun - t.threw);
              ctx.warn(
                `living: ${s.name ?? s.page} ${kind} broke off, its remaining clicks not run: ${err.message.split('\n')[0]}`,
              );
            });
          }
        } finally {
          await tc.close();
        }
      }),
    );
    const failed = ended.find((e): e is PromiseRejectedResult => e.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    await naiveBrowser.close();
  }
  for (const [j, s] of SUBJECTS.entries()) {
    const t = bySubject[j] as Tallies;
    const name = s.name ?? s.page;
    for (const k of KINDS) {
      const a = all[k];
      const b = t[k];
      a.runs += b.runs;
      a.notRun += b.notRun;
      a.threw += b.threw;
      a.followed += b.followed;
      a.notFollowed.push(...b.notFollowed.map((w) => `${name}: ${w}`));
      a.refused += b.refused;
      a.right += b.right;
      a.wrong += b.wrong;
      a.none += b.none;
      a.ms.push(...b.ms);
    }
    const click = summarize(t.still.ms);
    out.measures.push({
      key: `living.${name}.click`,
      thing: `/rw/${s.page}: trueclick click on a living page (${s.lives}), OK ones`,
      page: `/rw/${s.page}`,
      summary: click,
      ...(lanes > 1 ? { note: `${lanes} lanes, beside the other count sections` } : {}),
    });
    if (t.still.pixelMs.length > 0)
      out.measures.push({
        key: `living.${name}.pixels`,
        thing: `/rw/${s.page}: of that, the pixel guard (band cut, clipped re-capture, colour compare)`,
        page: `/rw/${s.page}`,
        summary: summarize(t.still.pixelMs),
      });
    raw[name] = { lives: s.lives, ...t };
  }
  const pct = (k: number, m: number) => `${((100 * k) / Math.max(1, m)).toFixed(1)} %`;
  const { still, moved, follow, naiveStill, naiveMoved } = all;
  const notRun = (x: Tally) =>
    (x.notRun > 0 ? `; not run ${x.notRun} (page not ready twice, see warnings)` : '') +
    (x.threw > 0
      ? `; the click threw ${x.threw} (page busy past its time limit, nothing recorded; see warnings)`
      : '');
  // Why the follow lane refused, most frequent first.
  const whys = new Map<string, number>();
  for (const w of follow.notFollowed) {
    const k = w.replace(/"[^"]*"/g, '"…"').replace(/\d+(\.\d+)?/g, 'N');
    whys.set(k, (whys.get(k) ?? 0) + 1);
  }
  const topWhys = [...whys.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  out.counts.push(
    {
      key: 'living.still.trueclick',
      thing: `living pages, nothing moved (${SUBJECTS.map((s) => s.name ?? s.page).join(', ')}): trueclick click ${THINK_MS} ms after the screenshot`,
      runs: still.runs,
      wrong: still.refused,
      detail: `false refusals ${still.refused} (${pct(still.refused, still.runs)}); the record seen acted on ${still.right}, another ${still.wrong}, nothing recorded ${still.none} (server's log)${notRun(still)}`,
      target: '≤ 1 % false refusals',
      met: still.refused <= still.runs / 100 && still.wrong === 0,
    },
    {
      key: 'living.still.naive',
      thing: 'living pages, nothing moved: naive click at the same CSS point',
      runs: naiveStill.runs,
      wrong: naiveStill.wrong,
      detail: `the record seen acted on ${naiveStill.right}, another ${naiveStill.wrong}, nothing ${naiveStill.none}${notRun(naiveStill)}`,
      target: '(baseline)',
      met: null,
    },
    {
      key: 'living.moved.trueclick',
      thing: `living pages moved while the model thought (re-sorted, prepended, values rotated): trueclick click`,
      runs: moved.runs,
      wrong: moved.wrong,
      detail: `clicks on another record ${moved.wrong}; refused ${moved.refused}; the record seen acted on ${moved.right}; nothing recorded ${moved.none}${notRun(moved)}`,
      target: '0 clicks on another record',
      met: moved.wrong === 0,
    },
    {
      key: 'living.moved.follow',
      thing: 'living pages moved: trueclick click with follow (the record seen, where it is now)',
      runs: follow.runs,
      wrong: follow.wrong,
      detail: `clicks on another record ${follow.wrong}; the record seen acted on ${follow.right} (${pct(follow.right, follow.runs)}; answered as followed ${follow.followed}); refused ${follow.refused}${topWhys.length > 0 ? ` (${topWhys.map(([w, n]) => `${n}× ${w}`).join('; ')})` : ''}; nothing recorded ${follow.none}${notRun(follow)}`,
      target: '0 clicks on another record',
      met: follow.wrong === 0,
    },
    {
      key: 'living.moved.naive',
      thing: 'living pages moved: naive click at the same CSS point',
      runs: naiveMoved.runs,
      wrong: naiveMoved.wrong,
      detail: `the record seen acted on ${naiveMoved.right}, another ${naiveMoved.wrong}, nothing ${naiveMoved.none}${notRun(naiveMoved)}`,
      target: '(baseline)',
      met: null,
    },
  );
  out.raw = { living: raw };
  return out;
}
