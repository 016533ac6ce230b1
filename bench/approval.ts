/**
 * The approval gate through the library's `approve` callback (README "Approval"), on the ticket queue:
 * 1. the cost of the re-read at the yes: approval.yesToPressMs (the whole check run again between the yes
 *    and the press) over presses approved at once on a still page, beside a guarded click on a control the
 *    gate does not ask about (the toast's Dismiss), same session, alternating, in the same run;
 * 2. the soak (approval-soak.ts): the person takes 2–30 s while the queue re-sorts in half the runs.
 * Every session is a context of one shared Chromium. Truth is the page's own hit record.
 */
import { SharedBrowser } from '../src/browser/plumbing/shared-browser.js';
import { TrueclickSession } from '../src/index.js';
import { aim, deleteAt, deletions } from './approval-queue.js';
import { soak } from './approval-soak.js';
import { DPR } from './cdp.js';
import type { Ctx } from './context.js';
import { onCleanup } from './procs.js';
import { emptySection, type Section } from './results.js';
import { fmtMs, fmtRatio, sleep, summarize } from './stats.js';

export async function measureApproval(ctx: Ctx): Promise<Section> {
  return withShared(async (shared, out) => {
    await rereadCost(ctx, shared, out);
    await soak(ctx, shared, out);
  });
}

/** Part 1 alone: a time (bench/run.ts runs it with nothing else of the bench beside it). */
export const measureApprovalCost = (ctx: Ctx) => withShared((shared, out) => rereadCost(ctx, shared, out));
/** Part 2 alone: counts from the page's record (bench/run.ts runs it beside the other count sections). */
export const measureApprovalSoak = (ctx: Ctx) => withShared((shared, out) => soak(ctx, shared, out));

async function withShared(fn: (shared: SharedBrowser, out: Section) => Promise<void>): Promise<Section> {
  const out = emptySection();
  const shared = new SharedBrowser({ deviceScaleFactor: DPR });
  const unregister = onCleanup(() => shared.close());
  try {
    await fn(shared, out);
  } finally {
    unregister();
    await shared.close();
  }
  return out;
}

async function rereadCost(ctx: Ctx, shared: SharedBrowser, out: Section): Promise<void> {
  const { warmup, runs } = ctx.opts;
  // Twice the timed runs: one figure per press, and the p90 wants more than ten. --quick: the runs (the
  // median's ten; its p90 is then the ninth of ten).
  const n = ctx.opts.quick ? runs : 2 * runs;
  ctx.log(`approval: ${warmup}+${n} approved Delete presses and as many Dismiss clicks on a still /tickets`);
  let asked = 0;
  const session = new TrueclickSession({
    deviceScaleFactor: DPR,
    browserSource: () => shared.handle(),
    approvePresses: 'destructive',
    approve: async () => {
      asked++;
      return true;
    },
  });
  const reread: number[] = [];
  const gated: number[] = [];
  const plain: number[] = [];
  const gatedRuns: Array<{ run: string; ticket: string }> = [];
  try {
    for (let round = 0; round < warmup + n; round++) {
      // Alternate which goes first, so a burst of load on this 2-core machine hits both alike.
      const kinds = round % 2 ? (['plain', 'gated'] as const) : (['gated', 'plain'] as const);
      for (const kind of kinds) {
        const run = `approval-cost-${round}-${kind}`;
        // The same page for both: the toast's Dismiss is the plain control (row 0's Delete lies under it).
        await session.navigate(ctx.fixture.url('/tickets', { run, toast: 0 }));
        await (await session.driver()).page.waitForSelector('#toast-close');
        const a = await aim(session, kind === 'plain' ? '#toast-close' : deleteAt(1 + (round % 7)));
        const before = asked;
        const t0 = performance.now();
        const r = await session.click({ frame: a.frame, ...a.at });
        const ms = performance.now() - t0;
        if (r.verdict !== 'OK') ctx.warn(`approval cost: ${kind} click ${r.verdict}: ${r.message}`);
        if (asked > before !== (kind === 'gated'))
          ctx.warn(`approval cost: the ${kind} click was${asked > before ? '' : ' not'} put to the person`);
        if (round < warmup || r.verdict !== 'OK') continue;
        if (kind === 'plain') plain.push(ms);
        else {
          gated.push(ms);
          reread.push(r.approval?.yesToPressMs ?? Number.NaN);
          gatedRuns.push({ run, ticket: a.ticket });
        }
      }
    }
  } finally {
    await session.close();
  }
  await sleep(500);
  const rightDeletes = gatedRuns.filter((g) => deletions(ctx.fixture, g.run).join() === g.ticket).length;
  if (rightDeletes < gatedRuns.length)
    ctx.warn(
      `approval cost: the page deleted the ticket shown in ${rightDeletes} of ${gatedRuns.length} OK presses`,
    );
  const rr = summarize(reread);
  const pl = summarize(plain);
  const ga = summarize(gated);
  ctx.log(
    `approval: re-read p50 ${fmtMs(rr.median)} ms (p90 ${fmtMs(rr.p90)}); plain click p50 ${fmtMs(pl.median)} ms; gated click p50 ${fmtMs(ga.median)} ms; re-read/plain ${fmtRatio(rr.median / pl.median)}`,
  );
  out.measures.push(
    {
      key: 'approval.reread',
      thing: 'approval: from the yes to the press (approval.yesToPressMs, the check run again), yes at once',
      page: '/tickets',
      summary: rr,
    },
    {
      key: 'approval.plain',
      thing: 'baseline: the whole guarded click on a control not put to the person (toast Dismiss)',
      page: '/tickets',
      summary: pl,
      note: `re-read p50 is ${fmtRatio(rr.median / pl.median)} of it`,
    },
    {
      key: 'approval.gated',
      thing: 'the whole guarded click on Delete, approved at once (ask, crop, re-read, press)',
      page: '/tickets',
      summary: ga,
      note: `${fmtRatio(ga.median / pl.median)} the baseline; the page deleted the ticket shown ${rightDeletes} of ${gatedRuns.length}`,
    },
  );
  out.checks.push({
    key: 'approval.reread:p50',
    thing: 'approval.reread_p50: the re-read between the yes and the press, p50',
    measured: `${fmtMs(rr.median)} ms (p90 ${fmtMs(rr.p90)}; ${fmtRatio(rr.median / pl.median)} a plain click)`,
    value: rr.median,
    target: '≤ 50 ms',
    met: rr.n > 0 && rr.median <= 50,
  });
  out.raw = { ...out.raw, approvalCost: { reread, plain, gated, rightDeletes, gatedRuns: gatedRuns.length } };
}
