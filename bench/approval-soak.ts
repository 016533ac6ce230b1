/**
 * Approval soak on the ticket queue: screenshot, aim at a row's Delete from the page's layout, click; the
 * person (the approve callback) takes 2–30 s, and in half the runs the queue re-sorts while they look
 * (reverse, rotate, or rewrite: the same button node relabelled, as a virtualised list does). The page's hit
 * record says what was deleted: the ticket shown (OK), nothing (refused), or another ticket (must never
 * happen). A refusal on a still run is a false one. Several sessions run at once on one shared browser, so
 * the waits overlap; every choice comes from a seeded RNG, so a run can be repeated as it was.
 */
import type { SharedBrowser } from '../src/browser/plumbing/shared-browser.js';
import { type ApprovalRequest, TrueclickSession } from '../src/index.js';
import { aim, deleteAt, deletions } from './approval-queue.js';
import { DPR } from './cdp.js';
import type { Ctx } from './context.js';
import type { Section } from './results.js';
import { sleep } from './stats.js';

const SEED = 30;
/**
 * Sessions at once: 30 runs of ~16 s each take about a minute and a half instead of 8. Ten, beside the other
 * count sections, overloaded two cores: 11 of 30 runs ended in ERROR (a capture over 8 s).
 */
const SESSIONS = 5;
const ORDERS = ['reverse', 'rotate', 'rewrite'] as const;

interface Run {
  run: string;
  moved: boolean;
  order: (typeof ORDERS)[number];
  slot: number;
  /** How long the person takes to answer, ms. */
  waitMs: number;
  /** When in that wait the queue re-sorts (moved runs), ms. */
  moveAtMs: number;
  /** Ticket whose Delete the screenshot showed at the point. */
  ticket?: string;
  verdict?: string;
  /** What trueclick's answer says the person took (approval.waitedMs): that the gate really waited. */
  waitedMs?: number;
  /** The person was asked, and the sentence named the ticket shown. */
  asked?: boolean;
  namedTicket?: boolean;
  error?: string;
}

/** mulberry32: small, fast, and the same sequence on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plan(n: number, scale: number): Run[] {
  const r = rng(SEED);
  // Exactly half the runs move, in a seeded order.
  const moved = Array.from({ length: n }, (_, i) => i < Math.floor(n / 2));
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [moved[i], moved[j]] = [moved[j] as boolean, moved[i] as boolean];
  }
  return moved.map((m, i) => {
    const waitMs = Math.round((2000 + r() * 28_000) * scale);
    return {
      run: `approval-soak-${i}`,
      moved: m,
      order: ORDERS[Math.floor(r() * ORDERS.length)] as Run['order'],
      slot: Math.floor(r() * 8),
      waitMs,
      moveAtMs: Math.round(waitMs * (0.1 + 0.8 * r())),
    };
  });
}

/** One run on a session whose approve callback calls `person` (set per run). */
async function once(
  ctx: Ctx,
  session: TrueclickSession,
  setPerson: (p: (req: ApprovalRequest) => Promise<boolean>) => void,
  r: Run,
): Promise<void> {
  // start=manual: the re-sort waits for __startSchedule(), called while the person looks.
  const query: Record<string, string | number> = r.moved
    ? { run: r.run, resort: 0, start: 'manual', order: r.order }
    : { run: r.run };
  // The load and the screenshot, once more when they fail: on two overloaded cores a capture ran past its
  // budget before anything was clicked (3 of 30 in a whole run), which is no measure of the gate.
  const prepare = async () => {
    await session.navigate(ctx.fixture.url('/tickets', query));
    return aim(session, deleteAt(r.slot));
  };
  const a = await prepare().catch((err: Error) => {
    ctx.log(`approval soak ${r.run}: ${err.message.split('\n')[0]}; once more on a fresh load`);
    return prepare();
  });
  r.ticket = a.ticket;
  setPerson(async (req) => {
    r.asked = true;
    r.namedTicket = req.sentence.includes(a.ticket);
    if (r.moved) {
      await sleep(r.moveAtMs);
      await a.page.evaluate(() => (window as unknown as { __startSchedule(): void }).__startSchedule());
    }
    await sleep(r.waitMs - (r.moved ? r.moveAtMs : 0));
    return true;
  });
  const report = await session.click({ frame: a.frame, ...a.at });
  r.verdict = report.verdict;
  r.waitedMs = report.approval?.waitedMs;
}

async function lane(ctx: Ctx, shared: SharedBrowser, runs: Run[]): Promise<void> {
  let person: (req: ApprovalRequest) => Promise<boolean> = async () => false;
  const session = new TrueclickSession({
    deviceScaleFactor: DPR,
    browserSource: () => shared.handle(),
    approvePresses: 'destructive',
    approve: (req) => person(req),
  });
  try {
    for (const r of runs) {
      try {
        await once(ctx, session, (p) => (person = p), r);
      } catch (err) {
        r.error = (err as Error).message.split('\n')[0];
        ctx.warn(`approval soak ${r.run}: ${r.error}`);
      }
    }
  } finally {
    await session.close();
  }
}

interface Tally {
  runs: number;
  /** The page deleted the ticket the screenshot showed. */
  ok: number;
  /** Nothing deleted and trueclick said so (STALE_TARGET, COVERED, …). */
  refused: number;
  /** Another ticket deleted. */
  wrong: number;
  /** Nothing deleted though trueclick answered OK, or the run failed. */
  lost: number;
  notAsked: number;
  sentenceMissedTicket: number;
  verdicts: Record<string, number>;
}

function tally(ctx: Ctx, runs: Run[]): Tally {
  const t: Tally = {
    runs: runs.length,
    ok: 0,
    refused: 0,
    wrong: 0,
    lost: 0,
    notAsked: 0,
    sentenceMissedTicket: 0,
    verdicts: {},
  };
  for (const r of runs) {
    const v = r.verdict ?? 'ERROR';
    t.verdicts[v] = (t.verdicts[v] ?? 0) + 1;
    if (!r.asked) t.notAsked++;
    else if (!r.namedTicket) t.sentenceMissedTicket++;
    const deleted = deletions(ctx.fixture, r.run);
    if (deleted.some((d) => d !== r.ticket)) t.wrong++;
    else if (deleted.length > 0) t.ok++;
    else if (r.verdict && r.verdict !== 'OK') t.refused++;
    else t.lost++;
  }
  return t;
}

const list = (v: Record<string, number>) =>
  Object.entries(v)
    .map(([k, c]) => `${k} ${c}`)
    .join(', ');

export async function soak(ctx: Ctx, shared: SharedBrowser, out: Section): Promise<void> {
  const n = ctx.opts.approvalRuns;
  // --quick: the person answers in 0.2–3 s instead of 2–30 s.
  const scale = ctx.opts.quick ? 0.1 : 1;
  const runs = plan(n, scale);
  const lanes = Math.min(SESSIONS, n);
  const span = `${(2 * scale).toFixed(1)}–${(30 * scale).toFixed(0)} s`;
  ctx.log(
    `approval soak: ${n} runs, the person answers in ${span}, half re-sorted meanwhile; ${lanes} sessions`,
  );
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: lanes }, (_, k) =>
      lane(
        ctx,
        shared,
        runs.filter((_, i) => i % lanes === k),
      ),
    ),
  );
  const wallS = (Date.now() - t0) / 1000;
  await sleep(500);
  const still = tally(
    ctx,
    runs.filter((r) => !r.moved),
  );
  const moved = tally(
    ctx,
    runs.filter((r) => r.moved),
  );
  const orders = list(
    Object.fromEntries(ORDERS.map((o) => [o, runs.filter((r) => r.moved && r.order === o).length])),
  );
  const waited = runs.map((r) => r.waitedMs ?? Number.NaN).filter(Number.isFinite);
  const waitedSpan = `${(Math.min(...waited) / 1000).toFixed(1)}–${(Math.max(...waited) / 1000).toFixed(1)} s`;
  const detail = (t: Tally) =>
    `deleted the ticket shown ${t.ok}, refused with nothing deleted ${t.refused}, wrong ticket ${t.wrong}, OK but nothing deleted or failed ${t.lost}; verdicts: ${list(t.verdicts)}; not asked ${t.notAsked}, sentence without the ticket ${t.sentenceMissedTicket}`;
  ctx.log(`approval soak done in ${wallS.toFixed(0)} s; still: ${detail(still)}; moved: ${detail(moved)}`);
  out.counts.push(
    {
      key: 'approval.soak.still',
      thing: `approval soak, queue still while the person looked (${span}; false refusals = refused)`,
      runs: still.runs,
      wrong: still.wrong,
      detail: `${detail(still)}; the person took ${waitedSpan} (approval.waitedMs); ${lanes} sessions at once, ${wallS.toFixed(0)} s for the soak`,
      target: '0 wrong tickets, 0 false refusals',
      met: still.wrong === 0 && still.refused === 0 && still.lost === 0,
    },
    {
      key: 'approval.soak.moved',
      thing: `approval soak, queue re-sorted while the person looked (${orders})`,
      runs: moved.runs,
      wrong: moved.wrong,
      detail: detail(moved),
      target: '0 wrong tickets',
      met: moved.wrong === 0 && moved.lost === 0,
    },
  );
  out.raw = { ...out.raw, approvalSoak: { seconds: wallS, scale, lanes, still, moved, runs } };
}
