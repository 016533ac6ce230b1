import assert from 'node:assert/strict';
import { type FrameGeometry, GeometryError, type GeometryErrorCode } from '../../src/geometry/index.js';

/** A frame whose image shows a css.width x css.height viewport at `image` pixels (default: DPR 1, no downscale). */
export function frameOf(
  css: [number, number],
  image: [number, number] = css,
  extra: Partial<Pick<FrameGeometry, 'scroll' | 'windowOffset' | 'devicePixelRatio'>> = {},
): FrameGeometry {
  return {
    image: { width: image[0], height: image[1] },
    css: { width: css[0], height: css[1] },
    scroll: extra.scroll ?? { x: 0, y: 0 },
    devicePixelRatio: extra.devicePixelRatio ?? 1,
    ...(extra.windowOffset ? { windowOffset: extra.windowOffset } : {}),
  };
}

export function assertNear(actual: { x: number; y: number }, expected: [number, number], tol = 0.01): void {
  const ok = Math.abs(actual.x - expected[0]) <= tol && Math.abs(actual.y - expected[1]) <= tol;
  assert.ok(ok, `expected (${expected[0]}, ${expected[1]}) +-${tol}, got (${actual.x}, ${actual.y})`);
}

/** Asserts a GeometryError with `code` whose message also says what to pass instead (`hintHas`). */
export function assertGeometryError(
  fn: () => unknown,
  code: GeometryErrorCode,
  hintHas: string | RegExp,
): void {
  expectGeometryError(fn, code, hintHas);
}

/** assertGeometryError that hands the error back for further checks. */
export function expectGeometryError(
  fn: () => unknown,
  code: GeometryErrorCode,
  hintHas: string | RegExp,
): GeometryError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof GeometryError, `expected GeometryError ${code}, got ${String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.ok(caught.message.includes(caught.hint), 'message carries the hint');
  if (typeof hintHas === 'string')
    assert.ok(caught.hint.includes(hintHas), `hint "${caught.hint}" lacks "${hintHas}"`);
  else assert.match(caught.hint, hintHas);
  return caught;
}
