/** Marks (SPEC S7): browser_screenshot {marks: true} on the 500-control page costs ≤ 150 ms more than without. */
import type { Ctx } from './context.js';
import { emptySection, type Section } from './results.js';
import { interleaved } from './rounds.js';

export async function measureMarks(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const { opts } = ctx;
  const tc = await ctx.trueclick();
  await tc.navigate(ctx.pages.url('/many', { run: 'marks' }));
  let marks = 0;
  ctx.log(`marks /many: ${opts.warmup} warm-up + ${opts.runs} rounds with and without marks`);
  const t = await interleaved(
    [
      { key: 'plain', run: async () => (await tc.screenshot()).image },
      {
        key: 'marks',
        run: async () => {
          const s = await tc.screenshot({ marks: true });
          marks = s.marks;
          return s.image;
        },
      },
    ],
    opts.warmup,
    opts.runs,
  );
  const plain = t.get('plain');
  const withMarks = t.get('marks');
  if (!plain || !withMarks) return out;
  out.measures.push(
    {
      key: 'marks./many.plain',
      thing: 'trueclick browser_screenshot',
      page: '/many',
      summary: plain.summary,
    },
    {
      key: 'marks./many.marks',
      thing: `trueclick browser_screenshot {marks: true} (${marks} marks)`,
      page: '/many',
      summary: withMarks.summary,
    },
  );
  if (marks !== 500)
    ctx.warn(`marks: /many has 500 controls but browser_screenshot {marks: true} listed ${marks} marks`);
  const extra = withMarks.summary.median - plain.summary.median;
  out.checks.push({
    key: 'marks.extra',
    thing: `marks on /many (500 controls, ${marks} marks), extra median time`,
    measured: `+${extra.toFixed(1)} ms`,
    value: extra,
    target: '≤ 150 ms extra',
    met: extra <= 150,
  });
  return out;
}
