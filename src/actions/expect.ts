import type { Hit } from '../browser/element-facts.js';
import { toHit } from '../browser/element-facts.js';
import type { SnapshotElement, SnapshotIndex } from '../browser/snapshot.js';

/** What the agent says it means to click (SPEC S4 `expect`). */
export interface Expect {
  text?: string;
  context?: string;
  role?: string;
  name?: string;
  selector?: string;
}

const has = (hay: string | undefined, needle: string) =>
  (hay ?? '').toLowerCase().includes(needle.trim().toLowerCase());

/** Whether one element fits every field of `expect` (selector is judged live, not here). */
export function hitMatches(hit: Hit, expect: Expect): boolean {
  if (expect.text && !has(hit.text, expect.text) && !has(hit.name, expect.text)) return false;
  if (expect.name && !has(hit.name, expect.name)) return false;
  if (expect.role && hit.role.toLowerCase() !== expect.role.toLowerCase()) return false;
  if (expect.context && !has(hit.context, expect.context) && !has(hit.text, expect.context)) return false;
  return true;
}

export function hasSemanticExpect(e: Expect | undefined): e is Expect {
  return Boolean(e && (e.text || e.context || e.role || e.name));
}

/**
 * Elements of the snapshot that fit `expect`, smallest first: "Approve" is found as the button, not as the
 * body whose text also contains it. Restricted to the part of the page the frame showed.
 */
export function findExpected(
  snapshot: SnapshotIndex,
  expect: Expect,
  view: { x: number; y: number; width: number; height: number },
): SnapshotElement[] {
  const found: SnapshotElement[] = [];
  for (const el of snapshot.elements(view)) {
    if (hitMatches(toHit(el.facts), expect)) found.push(el);
  }
  found.sort((a, b) => a.bounds.width * a.bounds.height - b.bounds.width * b.bounds.height);
  // Drop containers of a smaller match: their text matches only because it includes the target's.
  return found.filter((el, i) => !found.slice(0, i).some((small) => contains(el.bounds, small.bounds)));
}

function contains(
  outer: { x: number; y: number; width: number; height: number },
  inner: { x: number; y: number; width: number; height: number },
) {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

export function boundsContain(
  b: { x: number; y: number; width: number; height: number },
  x: number,
  y: number,
) {
  return x >= b.x && y >= b.y && x < b.x + b.width && y < b.y + b.height;
}
