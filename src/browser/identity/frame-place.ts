/**
 * Where a frame's own coordinates sit in its parent's (or the page's): an affine map, since an iframe under
 * a CSS transform (a scaled-down preview, a tilted card) is scaled or turned as a whole. One implementation
 * for the frame's DOM snapshot (snapshot.ts) and for the live hit-test (hit-test.ts).
 */
export type Point = { x: number; y: number };
export type Box = { x: number; y: number; width: number; height: number };

/** outer = origin + ex·x + ey·y for a point (x, y) inside. */
export interface FramePlace {
  origin: Point;
  ex: Point;
  ey: Point;
}

export const placeAt = (x: number, y: number): FramePlace => ({
  origin: { x, y },
  ex: { x: 1, y: 0 },
  ey: { x: 0, y: 1 },
});

/** Whether the place only moves things (no scale, no turn): then plain offsets are exact. */
export const isTranslation = (p: FramePlace) => p.ex.x === 1 && p.ex.y === 0 && p.ey.x === 0 && p.ey.y === 1;

export function toOuter(p: FramePlace, q: Point): Point {
  return { x: p.origin.x + p.ex.x * q.x + p.ey.x * q.y, y: p.origin.y + p.ex.y * q.x + p.ey.y * q.y };
}

export function toInner(p: FramePlace, o: Point): Point {
  const dx = o.x - p.origin.x;
  const dy = o.y - p.origin.y;
  const det = p.ex.x * p.ey.y - p.ey.x * p.ex.y;
  if (Math.abs(det) < 1e-12) return { x: Number.NaN, y: Number.NaN };
  return { x: (p.ey.y * dx - p.ey.x * dy) / det, y: (-p.ex.y * dx + p.ex.x * dy) / det };
}

/** `inner` (placed in `outer`'s coordinates) placed in outer's outer coordinates. */
export function compose(outer: FramePlace, inner: FramePlace): FramePlace {
  const lin = (v: Point) => ({
    x: outer.ex.x * v.x + outer.ey.x * v.y,
    y: outer.ex.y * v.x + outer.ey.y * v.y,
  });
  return { origin: toOuter(outer, inner.origin), ex: lin(inner.ex), ey: lin(inner.ey) };
}

/** The axis-aligned box around a box's four corners mapped outward (inward with `inverse`). */
export function mapBox(p: FramePlace, b: Box, inverse = false): Box {
  if (isTranslation(p)) {
    const s = inverse ? -1 : 1;
    return { x: b.x + s * p.origin.x, y: b.y + s * p.origin.y, width: b.width, height: b.height };
  }
  const f = inverse ? (q: Point) => toInner(p, q) : (q: Point) => toOuter(p, q);
  const pts = [
    f({ x: b.x, y: b.y }),
    f({ x: b.x + b.width, y: b.y }),
    f({ x: b.x, y: b.y + b.height }),
    f({ x: b.x + b.width, y: b.y + b.height }),
  ];
  const xs = pts.map((q) => q.x);
  const ys = pts.map((q) => q.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * The place of an iframe's content from its box model as CDP reports it (DOM.getBoxModel): quads of eight
 * numbers (corners clockwise from the top-left, transformed) and the untransformed border-box size. The
 * border quad over that size gives the scale on each axis, and so the content's own size.
 */
/** What of CDP's DOM.BoxModel the places are read from. */
export interface BoxModelQuads {
  content: number[];
  border: number[];
  width: number;
  height: number;
}

/** The iframe's content box's own (untransformed) size, from its box model. */
export function contentSize(model: BoxModelQuads): { width: number; height: number } {
  const d = (q: number[], i: number, j: number) =>
    Math.hypot((q[2 * j] ?? 0) - (q[2 * i] ?? 0), (q[2 * j + 1] ?? 0) - (q[2 * i + 1] ?? 0));
  const sx = model.width > 0 ? d(model.border, 0, 1) / model.width : 1;
  const sy = model.height > 0 ? d(model.border, 0, 3) / model.height : 1;
  return {
    width: sx > 0 ? d(model.content, 0, 1) / sx : 0,
    height: sy > 0 ? d(model.content, 0, 3) / sy : 0,
  };
}

export function placeFromBoxModel(model: BoxModelQuads): FramePlace {
  const corner = (q: number[], i: number): Point => ({ x: q[2 * i] ?? 0, y: q[2 * i + 1] ?? 0 });
  const c0 = corner(model.content, 0);
  const c1 = corner(model.content, 1);
  const c3 = corner(model.content, 3);
  const b0 = corner(model.border, 0);
  const b1 = corner(model.border, 1);
  const b3 = corner(model.border, 3);
  const dist = (a: Point, b: Point) => Math.hypot(b.x - a.x, b.y - a.y);
  const sx = model.width > 0 ? dist(b0, b1) / model.width : 1;
  const sy = model.height > 0 ? dist(b0, b3) / model.height : 1;
  const { width: cw, height: ch } = contentSize(model);
  // Not transformed (the usual case): exactly the content box's top-left, as before.
  const upright = Math.abs(c1.y - c0.y) < 1e-6 && Math.abs(c3.x - c0.x) < 1e-6;
  if (cw <= 0 || ch <= 0 || (upright && Math.abs(sx - 1) < 1e-6 && Math.abs(sy - 1) < 1e-6))
    return placeAt(c0.x, c0.y);
  return {
    origin: c0,
    ex: { x: (c1.x - c0.x) / cw, y: (c1.y - c0.y) / cw },
    ey: { x: (c3.x - c0.x) / ch, y: (c3.y - c0.y) / ch },
  };
}
