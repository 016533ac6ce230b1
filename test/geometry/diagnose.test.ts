// Affine fit and verdicts: a misread frame is one transform; a guessing model is none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diagnose, explainScale, fitAffine, type Sample } from '../../src/geometry/index.js';
import { assertGeometryError } from './helpers.js';

const INTENDED: Array<[number, number]> = [
  [60, 40],
  [420, 210],
  [900, 400],
  [1102, 636],
  [1240, 760],
];

function samples(intended: Array<[number, number]>, actual: Array<[number, number]>): Sample[] {
  return intended.map((p, i) => ({ intended: p, actual: actual[i] ?? [0, 0] }));
}

function mapped(f: (p: [number, number]) => [number, number]): Sample[] {
  return INTENDED.map((p) => ({ intended: p, actual: f(p) }));
}

// The classic case: a 1568-px-wide image of a 1280-px viewport, its pixels clicked as CSS px.
const CLASSIC = samples(INTENDED, [
  [73, 49],
  [514, 257],
  [1102, 490],
  [1349, 779],
  [1518, 931],
]);

describe('fitAffine', () => {
  it('classic downscale: scale 1.225 +-0.005 on both axes, |offset| < 1', () => {
    const fit = fitAffine(CLASSIC);
    for (const axis of [fit.x, fit.y]) {
      assert.ok(Math.abs(axis.scale - 1.225) <= 0.005, `scale ${axis.scale}`);
      assert.ok(Math.abs(axis.offset) < 1, `offset ${axis.offset}`);
      assert.ok(axis.residual < 1, `residual ${axis.residual}`);
    }
  });
  it('recovers an exact transform', () => {
    const fit = fitAffine(mapped(([x, y]) => [2 * x + 5, 0.5 * y - 7]));
    assert.ok(Math.abs(fit.x.scale - 2) < 1e-9 && Math.abs(fit.x.offset - 5) < 1e-9);
    assert.ok(Math.abs(fit.y.scale - 0.5) < 1e-9 && Math.abs(fit.y.offset + 7) < 1e-9);
    assert.ok(fit.x.residual < 1e-9 && fit.y.residual < 1e-9);
  });
  it('rejects malformed samples and empty lists with typed errors', () => {
    assertGeometryError(() => fitAffine([]), 'INSUFFICIENT_SAMPLES', 'at least 3');
    assertGeometryError(
      () => fitAffine([{ intended: [1, Number.NaN], actual: [1, 2] }] as Sample[]),
      'BAD_REQUEST',
      'two finite numbers',
    );
  });
});

describe('diagnose verdicts', () => {
  it('classic downscale -> uniform-scale naming 1568/1280', () => {
    const d = diagnose(CLASSIC);
    assert.equal(d.verdict, 'uniform-scale');
    assert.ok(
      d.likelyCauses.some((c) => c.startsWith('1568/1280 = 1.225')),
      d.likelyCauses.join('\n'),
    );
    assert.match(d.message, /1568\/1280 = 1\.225: a 1568-px-wide image read as CSS px of a 1280-px viewport/);
  });
  it('devicePixelRatio 2 -> uniform-scale naming the DPR', () => {
    const d = diagnose(mapped(([x, y]) => [Math.round(x * 2), Math.round(y * 2)]));
    assert.equal(d.verdict, 'uniform-scale');
    assert.match(d.likelyCauses[0] ?? '', /devicePixelRatio 2/);
  });
  it('DPR 1.65 inverse -> names 1/1.65', () => {
    const d = diagnose(mapped(([x, y]) => [x / 1.65, y / 1.65]));
    assert.equal(d.verdict, 'uniform-scale');
    assert.ok(d.likelyCauses.some((c) => c.startsWith('1/1.65')));
  });
  it('85 px toolbar -> constant-offset', () => {
    const d = diagnose(mapped(([x, y]) => [x, y + 85]));
    assert.equal(d.verdict, 'constant-offset');
    assert.ok(d.likelyCauses.some((c) => /toolbar/.test(c)));
    assert.ok(d.likelyCauses.some((c) => /scrolled 85 px/.test(c)));
  });
  it('axes swapped', () => {
    const d = diagnose(mapped(([x, y]) => [y, x]));
    assert.equal(d.verdict, 'axes-swapped');
    assert.match(d.message, /axis_order 'yx'/);
  });
  it('vertical flip (bottom-left origin)', () => {
    const d = diagnose(mapped(([x, y]) => [x, 800 - y]));
    assert.equal(d.verdict, 'vertical-flip');
    assert.match(d.message, /origin 'bottom-left'/);
    assert.match(d.likelyCauses[0] ?? '', /800 px high/);
  });
  it('scattered -> the model is guessing', () => {
    const actual: Array<[number, number]> = [
      [400, 700],
      [90, 30],
      [1200, 150],
      [300, 520],
      [1000, 90],
    ];
    const d = diagnose(samples(INTENDED, actual));
    assert.equal(d.verdict, 'scattered');
    assert.match(d.message, /not a frame problem: the model is guessing/i);
  });
  it('no error', () => {
    const d = diagnose(mapped(([x, y]) => [x + 1, y - 1]));
    assert.equal(d.verdict, 'no-error');
  });
  it('per-axis scale (aspect not kept, e.g. 768x768)', () => {
    const d = diagnose(mapped(([x, y]) => [(x * 768) / 1280, (y * 768) / 800]));
    assert.equal(d.verdict, 'per-axis-scale');
    assert.ok(d.likelyCauses.some((c) => /768x768/.test(c)));
    assert.ok(d.likelyCauses.some((c) => c.startsWith('x: 768/1280')));
  });
  it('fewer than 3 samples -> insufficient', () => {
    assert.equal(diagnose(CLASSIC.slice(0, 2)).verdict, 'insufficient');
    assert.equal(diagnose([]).verdict, 'insufficient');
    assert.equal(diagnose([]).fit.x.scale, 1);
  });
  it('points along one line only -> insufficient', () => {
    const line = [0, 1, 2, 3].map((i): Sample => ({ intended: [100 * i, 50], actual: [100 * i, 60] }));
    assert.equal(diagnose(line).verdict, 'insufficient');
  });
});

describe('explainScale', () => {
  it('names a single cause when one fits within 0.5 %, and no products beside it', () => {
    const causes = explainScale(1.225);
    assert.match(causes[0] ?? '', /^1568\/1280/);
    assert.ok(
      causes.every((c) => !/multiplied|divided by devicePixelRatio/.test(c)),
      causes.join('\n'),
    );
    assert.deepEqual(explainScale(50), []);
  });
  it('falls back to a DPR x downscale product: 1.65 x 1568/1280 = 2.0213', () => {
    assert.match(
      explainScale(1.65 * (1568 / 1280))[0] ?? '',
      /^1\.65 x 1568\/1280 = 2\.0213: .*multiplied by devicePixelRatio 1\.65/,
    );
  });
});
