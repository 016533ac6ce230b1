import { type Hit, roleAndLabel, toHit } from '../../browser/identity/element-facts.js';
import type { Capture } from '../../browser/snapshot/capture.js';
import type { SnapshotIndex } from '../../browser/snapshot/snapshot.js';

export interface Mark {
  id: number;
  backendNodeId: number;
  /** The iframe (CDP frame id) whose document holds the element; absent for the page's own. */
  frame?: string;
  hit: Hit;
  /** CSS viewport px at capture. */
  css: { x: number; y: number; width: number; height: number };
  /** Frame image px. */
  image: { x: number; y: number; width: number; height: number };
}

/** Numbered labels for the visible interactive elements of a capture, in document order. */
export function marksFor(
  capture: Pick<Capture, 'scroll' | 'css' | 'image' | 'origin'>,
  snapshot: SnapshotIndex,
  limit = 600,
): Mark[] {
  const { scroll, css, image } = capture;
  const o = capture.origin ?? { x: 0, y: 0 };
  const sx = image.width / css.width;
  const sy = image.height / css.height;
  const els = snapshot.interactiveElements({
    x: scroll.x + o.x,
    y: scroll.y + o.y,
    width: css.width,
    height: css.height,
  });
  return els.slice(0, limit).map((el, i) => {
    const c = {
      x: el.bounds.x - scroll.x,
      y: el.bounds.y - scroll.y,
      width: el.bounds.width,
      height: el.bounds.height,
    };
    const mark: Mark = {
      id: i + 1,
      backendNodeId: el.facts.backendNodeId,
      hit: toHit(el.facts),
      css: c,
      image: { x: (c.x - o.x) * sx, y: (c.y - o.y) * sy, width: c.width * sx, height: c.height * sy },
    };
    if (el.facts.frame) mark.frame = el.facts.frame;
    return mark;
  });
}

/** `[7] button "Approve" — row "TCK-7741 …"` */
export function markLine(m: Mark): string {
  const ctx =
    m.hit.context && m.hit.context !== (m.hit.name || m.hit.text) ? ` — row "${m.hit.context}"` : '';
  return `[${m.id}] ${roleAndLabel(m.hit)}${ctx}${m.frame ? ' (in an iframe)' : ''}`;
}
