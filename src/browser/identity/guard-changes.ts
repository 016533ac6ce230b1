import type { TreeView } from './identity.js';

/**
 * The page's changes as the guard sees them: how many mutations since it was installed (a click reports how
 * much changed since its frame), when each element's own text last changed in place (a duration that ticks
 * ten times a second is told from a re-sort by this, not by its text), and the shadow trees around a checked
 * element, which the document's observer does not see into. Runs in the page inside the guard
 * (guard-script.ts embeds its source): no imports but types, no outer variables.
 *
 * @param onRecords each batch, before its text changes are logged as ticks (the press's effect and the
 *   armed guard read it).
 */
export function pageChanges(
  view: TreeView<Element>,
  onRecords: (records: MutationRecord[]) => void,
): {
  count: () => number;
  /** When el's own text changed in place lately, newest last. */
  ticks: (el: Element) => number[];
  /** Watches the shadow trees that hold el and its record, and those inside them, from now on. */
  watchAround: (el: Element, rec: Element | null) => void;
} {
  const TICKS_KEPT = 6;
  const ticks = new WeakMap<Element, number[]>();
  let count = 0;
  const ownerOf = (n: Node | null): Element | null => {
    if (n instanceof ShadowRoot) return n.host;
    return n instanceof Element ? n : null;
  };
  const logTick = (n: Node | null) => {
    // The parser puts each element's text in as it reads the document: not a change of it.
    if (document.readyState === 'loading') return;
    const el = ownerOf(n);
    if (!el) return;
    const list = ticks.get(el) ?? [];
    list.push(performance.now());
    if (list.length > TICKS_KEPT) list.shift();
    ticks.set(el, list);
  };
  const hasText = (list: NodeList) => Array.from(list).some((n) => n.nodeType === 3);
  const observer = new MutationObserver((records) => {
    count += records.length;
    onRecords(records);
    for (const r of records) {
      if (r.type === 'characterData') logTick(r.target.parentNode);
      else if (r.type === 'childList' && (hasText(r.addedNodes) || hasText(r.removedNodes)))
        logTick(r.target);
    }
  });
  const OBSERVE = {
    childList: true,
    subtree: true,
    attributes: true,
    attributeOldValue: true,
    characterData: true,
  };
  observer.observe(document, OBSERVE);
  // One observer, many roots.
  const watched = new WeakSet<Node>();
  const watch = (root: ShadowRoot) => {
    if (watched.has(root)) return;
    watched.add(root);
    observer.observe(root, OBSERVE);
  };
  const watchAround = (el: Element, rec: Element | null) => {
    for (const start of [el, rec]) {
      for (let x: Element | null = start; x; ) {
        const root = x.getRootNode();
        if (!(root instanceof ShadowRoot)) break;
        watch(root);
        x = root.host;
      }
    }
    let seen = 0;
    const walk = (n: Element) => {
      if (++seen > 400) return;
      if (n.shadowRoot) watch(n.shadowRoot);
      for (const k of view.kids(n)) if (typeof k !== 'string') walk(k);
    };
    walk(rec ?? el);
  };
  return { count: () => count, ticks: (el) => ticks.get(el) ?? [], watchAround };
}
