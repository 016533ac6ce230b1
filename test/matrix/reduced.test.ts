import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cellCount,
  describeFailure,
  isFailure,
  type MatrixSpec,
  REDUCED_SPEC,
  runMatrix,
} from '../../src/cli/matrix/index.js';

// The reduced grounding matrix (SPEC S7; the full one is `npm run matrix`): DPR {1, 1.65, 2} x both scale
// sources x both scrollbars x both scrolls x every image path (trueclick's default, full resolution, a client
// shrinking it to 1568, shown 1000 wide) x one preset per unit / axis order / resize rule x near-origin and
// far-corner targets. Each cell reads the target's box from the DOM, writes what the model family would answer
// as its raw text, clicks through trueclick, and asks the page which element got the click.

for (const source of REDUCED_SPEC.sources) {
  test(`reduced matrix, ${source} scale factor: every trueclick click lands on the intended element`, async (t) => {
    const spec: MatrixSpec = { ...REDUCED_SPEC, sources: [source] };
    const t0 = Date.now();
    const run = await runMatrix(spec);
    const setup = run.configs.filter((c) => c.error).map((c) => c.error);
    assert.deepEqual(setup, [], 'every browser config ran in the world it claims');
    assert.equal(run.results.length, cellCount(spec), 'every cell ran');

    const failures = run.results.filter(isFailure);
    assert.equal(
      failures.length,
      0,
      `${failures.length} of ${run.results.length} cells missed:\n${failures.slice(0, 15).map(describeFailure).join('\n')}`,
    );

    // The harness can tell a miss from a hit: the naive pipeline (the model's numbers as CSS px) hits where the
    // image is CSS-sized and the model answers in its pixels, and misses elsewhere.
    const naive = run.results.flatMap((r) => (r.naive ? [{ r, n: r.naive }] : []));
    assert.ok(
      naive.some(({ r, n }) => n.hit && r.cell.dpr === 1 && r.cell.downscale === 'none'),
      'naive clicks hit at DPR 1 on an image shown as sent',
    );
    assert.ok(
      naive.some(
        ({ r, n }) => !n.hit && n.where === 'dispatched' && r.cell.dpr === 2 && r.cell.downscale === 'full',
      ),
      'naive clicks at DPR 2 on a full-resolution image reach the page and miss',
    );
    t.diagnostic(
      `${source}: ${run.results.length} cells in ${((Date.now() - t0) / 1000).toFixed(1)} s, 0 misses`,
    );
  });
}
