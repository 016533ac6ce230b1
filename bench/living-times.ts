// The living section's times: what a ticking text adds to a click, and what the living-page rules cost a
// click against an earlier build (TRUECLICK_BASELINE).
import { TrueclickSession } from '../src/actions/session/session.js';
import type { Ctx } from './context.js';
import { ROWS, rowTarget, SUBJECTS, type Subject } from './living-pages.js';
import { emptySection, merge, type Section } from './results.js';
import { summarize } from './stats.js';
import { measureTicking } from './ticking.js';

/**
 * The section's times: what a ticking text adds to a click (bench/ticking.ts) and, with
 * TRUECLICK_BASELINE, what the living-page rules cost against an earlier build. bench/run.ts runs this
 * with nothing else of the bench beside it.
 */
export async function measureLivingTimes(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  await measureCost(ctx, out);
  merge(out, await measureTicking(ctx, ctx.opts.quick ? 6 : 10));
  return out;
}

/**
 * What the living-page rules cost a click the DOM vouches for: the same click (a title field of /rw/sheet,
 * no navigation) through this build and through an earlier one (TRUECLICK_BASELINE: a built checkout),
 * interleaved round by round in this run.
 */
async function measureCost(ctx: Ctx, out: Section): Promise<void> {
  const dir = process.env.TRUECLICK_BASELINE;
  if (!dir) {
    ctx.log('living: TRUECLICK_BASELINE not set (a built checkout of an earlier commit): cost not compared');
    return;
  }
  // The session moved to actions/session/ (issue 21): a baseline built before that has it one folder up.
  const mod = (await import(`${dir}/dist/src/actions/session/session.js`).catch(
    () => import(`${dir}/dist/src/actions/session.js`),
  )) as {
    TrueclickSession: typeof TrueclickSession;
  };
  const subjects = [
    { name: 'this build', tc: new TrueclickSession({ deviceScaleFactor: 2 }), ms: [] as number[] },
    { name: `baseline (${dir})`, tc: new mod.TrueclickSession({ deviceScaleFactor: 2 }), ms: [] as number[] },
  ];
  const rounds = Math.max(10, ctx.opts.runs * 2);
  try {
    for (let i = 0; i < rounds + 2; i++) {
      for (const sub of i % 2 ? subjects : [...subjects].reverse()) {
        await sub.tc.navigate(ctx.fixture.url('/rw/sheet', { run: `cost-${i}` }));
        const page = (await sub.tc.driver()).page;
        await page.waitForFunction(
          () => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true,
        );
        const p = await rowTarget(page, { ...SUBJECTS[3], target: 'input.title' } as Subject, i % ROWS);
        const shot = await sub.tc.screenshot();
        const { image, css } = shot.frame.geometry;
        const t0 = performance.now();
        const r = await sub.tc.click({
          frame: shot.frame.id,
          x: (p.x * image.width) / css.width,
          y: (p.y * image.height) / css.height,
        });
        if (i >= 2 && r.verdict === 'OK') sub.ms.push(performance.now() - t0);
      }
    }
  } finally {
    for (const sub of subjects) await sub.tc.close();
  }
  const [now, base] = subjects.map((x) => summarize(x.ms)) as [
    ReturnType<typeof summarize>,
    ReturnType<typeof summarize>,
  ];
  for (const [k, sub] of subjects.entries())
    out.measures.push({
      key: `living.cost.${k === 0 ? 'build' : 'baseline'}`,
      thing: `guarded click on a DOM-vouched record (/rw/sheet title field), ${sub.name}`,
      page: '/rw/sheet',
      summary: k === 0 ? now : base,
    });
  out.checks.push({
    key: 'living.cost',
    thing: 'what the living-page rules add to a click the DOM vouches for (p50, same run)',
    measured: `${(now.median - base.median).toFixed(1)} ms (${now.median.toFixed(1)} vs ${base.median.toFixed(1)} ms)`,
    value: now.median - base.median,
    target: '≤ 20 ms',
    met: now.median - base.median <= 20,
  });
}
