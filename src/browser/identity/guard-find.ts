import type { IdentityKit, TreeView } from './identity.js';

/** What the caller looks for: an element like the one the frame showed, in a record holding one of `names`. */
export interface RecordWanted {
  tag: string;
  text: string;
  names: string[];
  max: number;
}

/**
 * Where a record went (actions/check/follow.ts), read in the page: each element like the one the frame
 * showed (tag, text) whose record holds at least one of the parts that named it, with its facts, whether a
 * click at its own centre reaches it, and where a scrolling list hides it. Runs inside the guard
 * (guard-script.ts embeds its source): no imports but types, no outer variables.
 */
export function recordSearch(
  view: TreeView<Element>,
  kit: () => IdentityKit<Element>,
  facts: (el: Element) => Record<string, unknown>,
  deepAt: (x: number, y: number) => Element | null,
  composedContains: (outer: Element, inner: Element) => boolean,
): (want: RecordWanted) => Array<Record<string, unknown>> {
  type Box = { x: number; y: number; width: number; height: number };
  // Which side of a scrolling list's visible part holds the element's centre, and how far (CSS px).
  const clippedBy = (el: Element, r: Box) => {
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    for (let p = view.parent(el); p; p = view.parent(p)) {
      const cs = getComputedStyle(p);
      if (!/auto|scroll|hidden|clip/.test(cs.overflowX + cs.overflowY)) continue;
      const b = p.getBoundingClientRect();
      if (cy < b.top) return { side: 'above', px: b.top - cy };
      if (cy > b.bottom) return { side: 'below', px: cy - b.bottom };
      if (cx < b.left) return { side: 'left of', px: b.left - cx };
      if (cx > b.right) return { side: 'right of', px: cx - b.right };
    }
    return null;
  };
  return (want) => {
    const k = kit();
    const out: Array<Record<string, unknown>> = [];
    const visit = (root: Document | ShadowRoot) => {
      for (const el of Array.from(root.querySelectorAll('*'))) {
        if (el.shadowRoot) visit(el.shadowRoot);
        if (out.length > want.max || view.tag(el) !== want.tag || k.canonical(el) !== el) continue;
        if (k.text(el) !== want.text) continue;
        // Not rendered (a copy a layout hides): nothing a click could reach.
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        const rec = k.record(el);
        const parts = rec ? k.recordParts(rec.node) : [];
        if (!want.names.some((n) => parts.includes(n))) continue;
        const f = facts(el);
        const top = deepAt(box.x + box.width / 2, box.y + box.height / 2);
        f.underPoint = !!top && composedContains(el, top);
        if (!f.underPoint) f.clipped = clippedBy(el, box);
        f.armedAt = performance.now();
        f.viewport = { width: innerWidth, height: innerHeight };
        out.push(f);
      }
    };
    visit(document);
    return out;
  };
}
