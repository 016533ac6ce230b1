/**
 * The stale and race soaks on the real-web corpus (fixtures/realweb): AG Grid fed new data into the same
 * row elements, and a React list keyed by index (rows reuse their nodes for other tickets). Every Delete
 * there is a plain link or a POST form, so the server's action log says which ticket each click deleted;
 * the intended ticket is the one the screenshot showed at the point (trueclick: the frame's record at
 * capture; naive: read from the page at capture).
 *
 * stale: the page moves 310 ms after it is ready, the model "thinks" 900 ms, then clicks.
 * race: the page rewrites its rows every few ms; screenshot and click with no model delay.
 */
import type { Action } from '../fixtures/realweb/actions.js';
import type { CdpTab } from './cdp.js';
import type { Ctx } from './context.js';
import { emptySection, type Section } from './results.js';
import { sleep } from './stats.js';
import { imagePx, type Trueclick } from './trueclick.js';

interface Subject {
  name: string;
  path: string;
  stale: Record<string, string | number>;
  /** What `stale` does, in words. */
  staleDoes: string;
  race: Record<string, string | number>;
  raceDoes: string;
  /** Slot i's Delete, CSS px (fixtures/realweb/README.md). */
  point(slot: number): { x: number; y: number };
  /** Reads the ticket of the row under a point, in the page (for the naive pipeline). */
  rowAt(p: { x: number; y: number }): string;
}

const SUBJECTS: Subject[] = [
  {
    name: 'AG Grid (row elements recycled)',
    path: '/rw/grid',
    stale: { animate: 0, replaceData: 310 },
    staleDoes: 'new row data into the same row elements at 310 ms',
    race: { animate: 0, every: 20, change: 'replaceData' },
    raceDoes: 'new row data every 20 ms',
    point: (slot) => ({ x: 1125, y: 149 + 40 * slot }),
    rowAt: (p) =>
      `(() => { const r = document.elementFromPoint(${p.x}, ${p.y})?.closest('.ag-row'); return r ? (r.textContent.match(/TCK-\\d+/) || [null])[0] : null; })()`,
  },
  {
    name: 'React list keyed by index',
    path: '/rw/list',
    stale: { keys: 'index', prepend: 310, n: 2 },
    staleDoes: 'two tickets prepended at 310 ms (rows reuse their nodes)',
    race: { keys: 'index', every: 10, change: 'resort' },
    raceDoes: 're-sorted every 10 ms',
    point: (slot) => ({ x: 1180, y: 104 + 48 * slot }),
    rowAt: (p) =>
      `(() => { const r = document.elementFromPoint(${p.x}, ${p.y})?.closest('.ticket-row'); return r ? r.querySelector('.id').textContent : null; })()`,
  },
];

const SLOTS = 8;
const ticketOf = (s: string | undefined) => /TCK-\d+/.exec(s ?? '')?.[0] ?? null;

interface Run {
  run: string;
  intended: string | null;
  verdict?: string;
}

interface Outcome {
  runs: number;
  wrong: number;
  right: number;
  none: number;
}

function outcome(runs: Run[], actions: Action[]): Outcome {
  const o: Outcome = { runs: runs.length, wrong: 0, right: 0, none: 0 };
  for (const r of runs) {
    const deleted = actions.filter((a) => a.run === r.run && a.do === 'delete').map((a) => a.id);
    if (deleted.some((d) => d !== r.intended)) o.wrong++;
    else if (deleted.length > 0) o.right++;
    else o.none++;
  }
  return o;
}

async function trueclickRun(tc: Trueclick, url: string, p: { x: number; y: number }, delayMs: number) {
  await tc.navigate(url);
  const { frame } = await tc.screenshot();
  const seenAt = performance.now();
  const ip = imagePx(frame, p);
  await sleep(delayMs - (performance.now() - seenAt));
  const r = await tc.click({ frame: frame.id, x: ip.x, y: ip.y });
  return { intended: ticketOf(r.hitAtCapture?.context), verdict: r.verdict };
}

async function naiveRun(tab: CdpTab, s: Subject, url: string, p: { x: number; y: number }, delayMs: number) {
  // The run before's Delete may commit after its wait on a loaded machine and cut this load short: once more.
  await tab.navigate(url).catch((err: Error) => {
    if (!/interrupted by another navigation/.test(err.message)) throw err;
    return tab.navigate(url);
  });
  const [, intended] = await Promise.all([tab.captureFull(), tab.evaluate<string | null>(s.rowAt(p))]);
  await sleep(delayMs);
  await tab.click(p.x, p.y);
  // A Delete navigates: let it commit, or the next run's navigation would be cut short by it.
  await tab.page.waitForURL(/\/rw\/act/, { timeout: 1500 }).catch(() => {});
  return { intended };
}

type Kind = 'stale' | 'race';

/**
 * The soaks of `kinds`. bench/run.ts runs both alone: the stale soaks because their page moves 310 ms after
 * it is ready (on a loaded machine the screenshot comes later and shows the page already moved, which tests
 * nothing), the race soaks because their pages render every 10–20 ms for as long as they are open: beside
 * the count sections a run took 12 s instead of 1, and its page burned the CPU the others waited for.
 */
export async function measureRealweb(ctx: Ctx, kinds: readonly Kind[] = ['stale', 'race']): Promise<Section> {
  const out = emptySection();
  const tc = await ctx.trueclick();
  const tab = await (await ctx.cdp()).newTab();
  const staleN = ctx.opts.realwebStaleRuns;
  const raceN = ctx.opts.realwebRaceRuns;
  const raw: Record<string, unknown> = {};
  try {
    for (const [k, s] of SUBJECTS.entries()) {
      for (const [kind, n, query, delay] of [
        ['stale', staleN, s.stale, ctx.opts.modelDelayMs],
        ['race', raceN, s.race, 0],
      ] as const) {
        if (!kinds.includes(kind)) continue;
        const order = kind === 'stale' ? 'trueclick and naive side by side' : 'trueclick then naive';
        ctx.log(`realweb ${kind}: ${n} runs on ${s.path} (${JSON.stringify(query)}), ${order}`);
        const tcRuns: Run[] = [];
        const naiveRuns: Run[] = [];
        type One = (url: string, p: { x: number; y: number }) => Promise<Omit<Run, 'run'>>;
        const lane = async (into: Run[], who: string, one: One) => {
          for (let i = 0; i < n; i++) {
            const run = `rw-${kind}-${k}-${who}-${i}`;
            into.push({
              run,
              ...(await one(ctx.fixture.url(s.path, { ...query, run }), s.point(i % SLOTS))),
            });
          }
        };
        const tcLane = () => lane(tcRuns, 'tc', (url, p) => trueclickRun(tc, url, p, delay));
        const naiveLane = () => lane(naiveRuns, 'naive', (url, p) => naiveRun(tab, s, url, p, delay));
        // A stale run mostly waits (the model's 900 ms), so trueclick's and the naive runs go side by side, as
        // the stale section's do. A race page renders all the time it is open: two at once only share the CPU.
        if (kind === 'stale') await Promise.all([tcLane(), naiveLane()]);
        else {
          await tcLane();
          await naiveLane();
        }
        await sleep(500);
        const actions = ctx.fixture.actions();
        const t = outcome(tcRuns, actions);
        const nv = outcome(naiveRuns, actions);
        const verdicts: Record<string, number> = {};
        for (const r of tcRuns) verdicts[r.verdict ?? '?'] = (verdicts[r.verdict ?? '?'] ?? 0) + 1;
        const vs = Object.entries(verdicts)
          .map(([v, c]) => `${v} ${c}`)
          .join(', ');
        const what = kind === 'stale' ? `${delay} ms after the screenshot` : 'right after the screenshot';
        const does = kind === 'stale' ? s.staleDoes : s.raceDoes;
        out.counts.push(
          {
            key: `realweb.${kind}.${k}.trueclick`,
            thing: `${s.name}, ${does}: trueclick browser_click ${what}`,
            runs: n,
            wrong: t.wrong,
            detail: `verdicts: ${vs}; the ticket seen deleted ${t.right}, nothing deleted ${t.none} (server's log)`,
            target: '0 deletions of another ticket',
            met: t.wrong === 0,
          },
          {
            key: `realweb.${kind}.${k}.naive`,
            thing: `${s.name}, ${does}: naive raw CDP click at the same CSS point`,
            runs: n,
            wrong: nv.wrong,
            detail: `the ticket seen deleted ${nv.right}, nothing deleted ${nv.none}`,
            target: '(baseline)',
            met: null,
          },
        );
        raw[`${kind}.${k}`] = { subject: s.name, query, trueclick: { ...t, verdicts }, naive: nv };
      }
    }
  } finally {
    await tab.page.close().catch(() => {});
  }
  out.raw = { [kinds.length > 1 ? 'realweb' : `realweb-${kinds[0]}`]: raw };
  return out;
}
