import type { Protocol } from 'devtools-protocol';
import {
  ACTIONABLE_ROLES,
  ACTIONABLE_TAGS,
  CONTEXT_ROLES,
  CONTEXT_SELECTOR_TAGS,
  type ElementFacts,
  isActionable,
  normalizeText,
} from './element-facts.js';

type Snapshot = Protocol.DOMSnapshot.CaptureSnapshotResponse;

export const SNAPSHOT_STYLES = ['pointer-events', 'visibility', 'cursor', 'display'] as const;

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
const INTERACTIVE_TAGS = new Set(ACTIONABLE_TAGS);
/** A label gets no mark of its own: the control it labels has one, and clicking either does the same. */
const MARKED_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY']);
const INTERACTIVE_ROLES = new Set(ACTIONABLE_ROLES);

type Box = { x: number; y: number; width: number; height: number };

export function intersects(a: Box, b: Box): boolean {
  return a.x + a.width > b.x && a.y + a.height > b.y && a.x < b.x + b.width && a.y < b.y + b.height;
}

export interface SnapshotElement {
  index: number;
  facts: ElementFacts;
  /** Page (document) CSS px. */
  bounds: { x: number; y: number; width: number; height: number };
}

/**
 * A DOM snapshot taken with the screenshot: answers "what was topmost at this point at capture time" and
 * "where was the element the agent describes", without touching the page again.
 */
export class SnapshotIndex {
  private readonly strings: string[];
  private readonly doc: Protocol.DOMSnapshot.DocumentSnapshot | undefined;
  private readonly children = new Map<number, number[]>();
  private readonly layoutOf = new Map<number, number>();
  private readonly textCache = new Map<number, string>();
  private labelsFor: Map<string, number> | undefined;

  /**
   * @param devicePerCss snapshot units per CSS px: 1 under emulation, but with a real scale factor
   * DOMSnapshot reports bounds and scroll in device px (DOM.getNodeForLocation still takes CSS px).
   */
  constructor(
    snapshot: Snapshot,
    private readonly devicePerCss = 1,
  ) {
    this.strings = snapshot.strings;
    this.doc = snapshot.documents[0];
    const parents = this.doc?.nodes.parentIndex ?? [];
    for (let i = 0; i < parents.length; i++) {
      const p = parents[i] ?? -1;
      if (p < 0) continue;
      const list = this.children.get(p);
      if (list) list.push(i);
      else this.children.set(p, [i]);
    }
    const layoutNodes = this.doc?.layout.nodeIndex ?? [];
    for (let li = 0; li < layoutNodes.length; li++) {
      const ni = layoutNodes[li];
      if (ni !== undefined && !this.layoutOf.has(ni)) this.layoutOf.set(ni, li);
    }
  }

  get scroll(): { x: number; y: number } {
    return {
      x: (this.doc?.scrollOffsetX ?? 0) / this.devicePerCss,
      y: (this.doc?.scrollOffsetY ?? 0) / this.devicePerCss,
    };
  }

  private str(i: number | undefined): string {
    return i === undefined || i < 0 ? '' : (this.strings[i] ?? '');
  }

  private style(layoutIndex: number, name: (typeof SNAPSHOT_STYLES)[number]): string {
    const styles = this.doc?.layout.styles[layoutIndex];
    return this.str(styles?.[SNAPSHOT_STYLES.indexOf(name)]);
  }

  private nodeType(i: number): number {
    return this.doc?.nodes.nodeType?.[i] ?? 0;
  }

  private tag(i: number): string {
    return this.str(this.doc?.nodes.nodeName?.[i]).toUpperCase();
  }

  private attrs(i: number): Record<string, string> {
    const flat = this.doc?.nodes.attributes?.[i] ?? [];
    const out: Record<string, string> = {};
    for (let k = 0; k + 1 < flat.length; k += 2) out[this.str(flat[k]).toLowerCase()] = this.str(flat[k + 1]);
    return out;
  }

  private parent(i: number): number {
    return this.doc?.nodes.parentIndex?.[i] ?? -1;
  }

  /** textContent as the live page computes it: descendant text nodes, shadow trees excluded. */
  private textContent(i: number): string {
    const cached = this.textCache.get(i);
    if (cached !== undefined) return cached;
    let out = '';
    const walk = (n: number) => {
      for (const c of this.children.get(n) ?? []) {
        const t = this.nodeType(c);
        if (t === TEXT_NODE) out += this.str(this.doc?.nodes.nodeValue?.[c]);
        else if (t === ELEMENT_NODE && !this.isShadowRootChild(c)) walk(c);
        if (out.length > 4000) return;
      }
    };
    walk(i);
    const text = normalizeText(out);
    this.textCache.set(i, text);
    return text;
  }

  private isShadowRootChild(i: number): boolean {
    const rare = this.doc?.nodes.shadowRootType;
    return rare ? rare.index.includes(i) : false;
  }

  private rare(data: Protocol.DOMSnapshot.RareStringData | undefined, i: number): string | undefined {
    if (!data) return undefined;
    const k = data.index.indexOf(i);
    return k < 0 ? undefined : this.str(data.value[k]);
  }

  private labelText(i: number, attrs: Record<string, string>): string | undefined {
    for (let p = this.parent(i); p >= 0; p = this.parent(p))
      if (this.tag(p) === 'LABEL') return this.textContent(p);
    if (!attrs.id) return undefined;
    if (!this.labelsFor) {
      // Built once: looking labels up per element would make marks on a large page quadratic.
      this.labelsFor = new Map();
      const names = this.doc?.nodes.nodeName ?? [];
      for (let n = 0; n < names.length; n++) {
        const target = this.tag(n) === 'LABEL' ? this.attrs(n).for : undefined;
        if (target && !this.labelsFor.has(target)) this.labelsFor.set(target, n);
      }
    }
    const label = this.labelsFor.get(attrs.id);
    return label === undefined ? undefined : this.textContent(label);
  }

  private contextText(i: number): string | undefined {
    for (let p = this.parent(i); p >= 0; p = this.parent(p)) {
      const role = this.attrs(p).role;
      if (CONTEXT_SELECTOR_TAGS.includes(this.tag(p)) || (role && CONTEXT_ROLES.includes(role))) {
        return this.textContent(p);
      }
    }
    return undefined;
  }

  factsOf(nodeIndex: number, scroll = this.scroll): ElementFacts {
    const nodes = this.doc?.nodes;
    const attrs = this.attrs(nodeIndex);
    const facts: ElementFacts = {
      backendNodeId: nodes?.backendNodeId?.[nodeIndex] ?? -1,
      tag: this.tag(nodeIndex),
      attrs,
      text: this.textContent(nodeIndex),
    };
    const value = this.rare(nodes?.inputValue, nodeIndex);
    if (value !== undefined) facts.value = value;
    if (nodes?.inputChecked && facts.tag === 'INPUT')
      facts.checked = nodes.inputChecked.index.includes(nodeIndex);
    const label = this.labelText(nodeIndex, attrs);
    if (label) facts.labelText = label;
    const ctx = this.contextText(nodeIndex);
    if (ctx) facts.contextText = ctx;
    if (!isActionable(facts.tag, attrs)) {
      for (let p = this.parent(nodeIndex); p >= 0; p = this.parent(p)) {
        const pa = this.attrs(p);
        if (isActionable(this.tag(p), pa)) {
          facts.actionable = { tag: this.tag(p), attrs: pa, text: this.textContent(p) };
          const ob = this.boundsOf(p);
          if (ob)
            facts.actionable.rect = {
              x: ob.x - scroll.x,
              y: ob.y - scroll.y,
              width: ob.width,
              height: ob.height,
            };
          break;
        }
      }
    }
    const b = this.boundsOf(nodeIndex);
    if (b) facts.rect = { x: b.x - scroll.x, y: b.y - scroll.y, width: b.width, height: b.height };
    return facts;
  }

  private boundsOf(nodeIndex: number) {
    const li = this.layoutOf.get(nodeIndex);
    return li === undefined ? undefined : this.box(li);
  }

  /** Layout box of a layout node in CSS page px. */
  private box(li: number): { x: number; y: number; width: number; height: number } {
    const [x = 0, y = 0, width = 0, height = 0] = this.doc?.layout.bounds[li] ?? [];
    const k = this.devicePerCss;
    return { x: x / k, y: y / k, width: width / k, height: height / k };
  }

  /** The element a click at this page point would have reached at capture time (pointer-events:none skipped). */
  topmostAt(pageX: number, pageY: number): SnapshotElement | null {
    const layout = this.doc?.layout;
    if (!layout) return null;
    let best = -1;
    let bestOrder = -1;
    for (let li = 0; li < layout.nodeIndex.length; li++) {
      const { x, y, width: w, height: h } = this.box(li);
      if (pageX < x || pageY < y || pageX >= x + w || pageY >= y + h) continue;
      if (this.style(li, 'pointer-events') === 'none' || this.style(li, 'visibility') === 'hidden') continue;
      const order = layout.paintOrders?.[li] ?? 0;
      if (order >= bestOrder) {
        bestOrder = order;
        best = li;
      }
    }
    if (best < 0) return null;
    let ni = layout.nodeIndex[best] ?? -1;
    while (ni >= 0 && this.nodeType(ni) !== ELEMENT_NODE) ni = this.parent(ni);
    if (ni < 0) return null;
    return this.element(ni);
  }

  private element(ni: number): SnapshotElement | null {
    const bounds = this.boundsOf(ni);
    if (!bounds) return null;
    return { index: ni, facts: this.factsOf(ni), bounds };
  }

  /** Visible elements an agent would act on, in document order (for marks and for finding `expect`). */
  interactiveElements(viewport: { x: number; y: number; width: number; height: number }): SnapshotElement[] {
    const out: SnapshotElement[] = [];
    const layout = this.doc?.layout;
    if (!layout) return out;
    for (let li = 0; li < layout.nodeIndex.length; li++) {
      const ni = layout.nodeIndex[li] ?? -1;
      if (ni < 0 || this.nodeType(ni) !== ELEMENT_NODE) continue;
      if (this.style(li, 'visibility') === 'hidden' || this.style(li, 'pointer-events') === 'none') continue;
      const tag = this.tag(ni);
      const attrs = this.attrs(ni);
      const interactive =
        (MARKED_TAGS.has(tag) && !(tag === 'INPUT' && attrs.type === 'hidden')) ||
        (attrs.role !== undefined && INTERACTIVE_ROLES.has(attrs.role)) ||
        'onclick' in attrs ||
        (this.style(li, 'cursor') === 'pointer' && !this.hasInteractiveAncestor(ni));
      if (!interactive) continue;
      const b = this.box(li);
      if (b.width < 2 || b.height < 2 || !intersects(b, viewport)) continue;
      const el = this.element(ni);
      if (el) out.push(el);
    }
    return out;
  }

  private hasInteractiveAncestor(ni: number): boolean {
    for (let p = this.parent(ni); p >= 0; p = this.parent(p)) {
      const li = this.layoutOf.get(p);
      if (INTERACTIVE_TAGS.has(this.tag(p))) return true;
      if (li !== undefined && this.style(li, 'cursor') === 'pointer') return true;
    }
    return false;
  }

  /** Elements with a layout box in this part of the page (page CSS px), for finding what `expect` describes. */
  *elements(view: Box): Generator<SnapshotElement> {
    const layout = this.doc?.layout;
    if (!layout) return;
    for (let li = 0; li < layout.nodeIndex.length; li++) {
      const ni = layout.nodeIndex[li] ?? -1;
      if (ni < 0 || this.nodeType(ni) !== ELEMENT_NODE) continue;
      // Bounds first: building facts (text, label, row) for every element of a long page costs tens of ms.
      if (!intersects(this.box(li), view)) continue;
      const el = this.element(ni);
      if (el && el.bounds.width > 0 && el.bounds.height > 0) yield el;
    }
  }

  findByBackendId(backendNodeId: number): SnapshotElement | null {
    const ids = this.doc?.nodes.backendNodeId ?? [];
    const ni = ids.indexOf(backendNodeId);
    return ni < 0 ? null : this.element(ni);
  }
}
