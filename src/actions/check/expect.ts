import type { Hit } from '../../browser/identity/element-facts.js';
import { toHit } from '../../browser/identity/element-facts.js';
import type { SnapshotElement, SnapshotIndex } from '../../browser/snapshot/snapshot.js';

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
 * Elements of the snapshot that fit `expect`, one per control, smallest first: "Approve" is found as the
 * button, not as the body whose text also contains it. Restricted to the part of the page the frame showed.
 */
export function findExpected(
  snapshot: SnapshotIndex,
  expect: Expect,
  view: { x: number; y: number; width: number; height: number },
): SnapshotElement[] {
  const found: SnapshotElement[] = [];
  for (const el of snapshot.elements(view)) {
    if (!el.facts.background && hitMatches(toHit(el.facts), expect)) found.push(el);
  }
  // A container matches only because its text includes the target's: drop any element that holds another
  // match, unless that match is part of the same control (the label span inside the button).
  const kept = found.filter(
    (el) =>
      !found.some(
        (other) =>
          other !== el &&
          snapshot.contains(el, other) &&
          snapshot.controlOf(other) !== snapshot.controlOf(el) &&
          snapshot.controlOf(other) !== el.index,
      ),
  );
  kept.sort((a, b) => a.bounds.width * a.bounds.height - b.bounds.width * b.bounds.height);
  return kept;
}

export function boundsContain(
  b: { x: number; y: number; width: number; height: number },
  x: number,
  y: number,
) {
  return x >= b.x && y >= b.y && x < b.x + b.width && y < b.y + b.height;
}
