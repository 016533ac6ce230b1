import { type FramePlace, placeAt } from '../identity/frame-place.js';
import type { Box, SnapshotDoc } from './snapshot-doc.js';

// Where a point lies on what a snapshot document drew: the clips of scroll boxes, the shapes of transformed
// elements, and where a transformed iframe's document sits; read off the snapshot as the live hit-test sees them.

export function intersects(a: Box, b: Box): boolean {
  return a.x + a.width > b.x && a.y + a.height > b.y && a.x < b.x + b.width && a.y < b.y + b.height;
}

export const inside = (b: Box, x: number, y: number) =>
  x >= b.x && y >= b.y && x < b.x + b.width && y < b.y + b.height;

/**
 * What an ancestor with overflow other than visible does to this point of the element: rows scrolled out
 * of a list box keep their layout boxes in the snapshot, but the live hit-test never reaches them
 * ('clipped'); a point on the box's own scrollbar reaches the box itself (its node index). A fixed element
 * escapes its ancestors' overflow. Null: nothing in the way.
 */
export function clipAt(d: SnapshotDoc, ni: number, x: number, y: number): number | 'clipped' | null {
  let hit: number | null = null;
  for (let n: number | null = ni; n !== null; n = d.parent(n)) {
    if (d.styleOfNode(n, 'position') === 'fixed') return hit;
    const a = d.parent(n);
    if (a === null) return hit;
    const tag = d.tag(a);
    if (tag === 'HTML' || tag === 'BODY') return hit;
    const ox = d.styleOfNode(a, 'overflow-x');
    const oy = d.styleOfNode(a, 'overflow-y');
    if ((ox && ox !== 'visible') || (oy && oy !== 'visible')) {
      const b = d.boundsOf(a);
      if (b && !inside(b, x, y)) return 'clipped';
      // Chromium clips hits at the border box: on the box's border a point still reaches what lies beneath.
      const p = d.paddingBoxOf(a);
      const c = d.clientBoxOf(a);
      if (p && c && inside(p, x, y) && !inside(c, x, y)) hit = a;
    }
  }
  return hit;
}

/**
 * Where an iframe's document sits in the document that holds the iframe: its content box's top-left, less
 * the document's own scroll, through the transforms on the iframe and its ancestors there (a scaled-down
 * preview). The snapshot's bounds are the transformed box's bounds: their centre is the box's centre, and
 * the untransformed size is what, turned and scaled, spans them.
 */
export function framePlace(d: SnapshotDoc, ni: number, b: Box, scroll: { x: number; y: number }): FramePlace {
  const bl = d.px(ni, 'border-left-width') + d.px(ni, 'padding-left');
  const bt = d.px(ni, 'border-top-width') + d.px(ni, 'padding-top');
  const L = linearAt(d, ni);
  if (!L) return placeAt(b.x + bl - scroll.x, b.y + bt - scroll.y);
  const [a, bb, c, dd] = L;
  // |a| W + |c| H = bounds width, |b| W + |d| H = bounds height.
  const det = Math.abs(a) * Math.abs(dd) - Math.abs(c) * Math.abs(bb);
  if (Math.abs(det) < 1e-6) return placeAt(b.x + bl - scroll.x, b.y + bt - scroll.y);
  const W = (Math.abs(dd) * b.width - Math.abs(c) * b.height) / det;
  const H = (Math.abs(a) * b.height - Math.abs(bb) * b.width) / det;
  const lin = (x: number, y: number) => ({ x: a * x + c * y, y: bb * x + dd * y });
  // A point q of the document: centre + L·(content top-left from the centre + q − scroll).
  const t = lin(-W / 2 + bl - scroll.x, -H / 2 + bt - scroll.y);
  return {
    origin: { x: b.x + b.width / 2 + t.x, y: b.y + b.height / 2 + t.y },
    ex: lin(1, 0),
    ey: lin(0, 1),
  };
}

/** The linear part of the transforms on an element and its ancestors in its document; null when none. */
function linearAt(d: SnapshotDoc, ni: number): Linear | null {
  let L: Linear = [1, 0, 0, 1];
  let any = false;
  for (let n: number | null = ni; n !== null; n = d.parent(n)) {
    const t = d.styleOfNode(n, 'transform');
    if (!t || t === 'none') continue;
    const m = linearOf(t);
    if (!m) return null;
    L = [
      m[0] * L[0] + m[2] * L[1],
      m[1] * L[0] + m[3] * L[1],
      m[0] * L[2] + m[2] * L[3],
      m[1] * L[2] + m[3] * L[3],
    ];
    any = true;
  }
  return any ? L : null;
}

type Linear = [number, number, number, number];

/** The linear part of a computed `transform` (`matrix(a, b, c, d, e, f)`); null for none or 3D. */
function linearOf(transform: string): Linear | null {
  const m = /^matrix\(([^)]+)\)$/.exec(transform.trim());
  if (!m?.[1]) return null;
  const [a = 1, b = 0, c = 0, d = 1] = m[1].split(',').map(Number);
  return [a, b, c, d];
}

/**
 * Whether the point is on the element's painted box, not just on the axis-aligned bounds the snapshot
 * gives for a rotated or scaled one: the bounds' centre is the transformed box's centre, so the point,
 * moved back by the inverse of the element's (and its ancestors') linear transforms, must lie within half
 * the untransformed size. A text box is judged by its element.
 */
export function insideShape(d: SnapshotDoc, ni: number, x: number, y: number): boolean {
  const L = linearAt(d, ni);
  if (!L) return true;
  const b = d.boundsOf(ni);
  const size = d.offsetSizeOf(ni);
  // SVG shapes have no offset box: their bounds are all there is.
  if (!b || !size || size.width <= 0 || size.height <= 0) return true;
  const det = L[0] * L[3] - L[2] * L[1];
  if (Math.abs(det) < 1e-9) return false;
  const px = x - (b.x + b.width / 2);
  const py = y - (b.y + b.height / 2);
  const lx = (L[3] * px - L[2] * py) / det;
  const ly = (-L[1] * px + L[0] * py) / det;
  return Math.abs(lx) <= size.width / 2 + 0.5 && Math.abs(ly) <= size.height / 2 + 0.5;
}

export function clipTo(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const r = Math.min(a.x + a.width, b.x + b.width);
  const bt = Math.min(a.y + a.height, b.y + b.height);
  return { x, y, width: Math.max(0, r - x), height: Math.max(0, bt - y) };
}
