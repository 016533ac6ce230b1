import type { Protocol } from 'devtools-protocol';
import { type ElementFacts, IDENTITY_LISTS } from './element-facts.js';
import { type IdentityKit, identityKit, type TreeView } from './identity.js';

type Snapshot = Protocol.DOMSnapshot.CaptureSnapshotResponse;
type DocumentSnapshot = Protocol.DOMSnapshot.DocumentSnapshot;

/** Computed styles read with every snapshot, in this order. */
export const SNAPSHOT_STYLES = [
  'pointer-events',
  'visibility',
  'cursor',
  'display',
  'border-left-width',
  'border-top-width',
  'padding-left',
  'padding-top',
  'overflow-x',
  'overflow-y',
  'position',
  'transform',
] as const;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

export type Box = { x: number; y: number; width: number; height: number };

/**
 * One document of a DOM snapshot (the page, or one iframe's document) as a `TreeView` over node indexes,
 * so the identity kit reads it exactly as it reads the live page.
 */
export class SnapshotDoc implements TreeView<number> {
  readonly kit: IdentityKit<number>;
  private readonly parents: number[];
  /** Flat-tree child nodes (elements and text), by node index. */
  private readonly flatKids = new Map<number, number[]>();
  private readonly kidCache = new Map<number, Array<number | string>>();
  /** Shadow tree mode of each node inside one ('open', 'closed', 'user-agent'). */
  private readonly mode = new Map<number, string>();
  private readonly pseudo: Set<number>;
  private readonly hosts = new Set<number>();
  private readonly layoutOf = new Map<number, number>();
  private readonly attrCache = new Map<number, Record<string, string>>();

  /**
   * @param devicePerCss snapshot units per CSS px: 1 under emulation, but with a real scale factor
   * DOMSnapshot reports bounds and scroll in device px (DOM.getNodeForLocation still takes CSS px).
   * @param frameId the frame this document belongs to ('' for the page itself).
   */
  constructor(
    private readonly strings: string[],
    readonly doc: DocumentSnapshot,
    private readonly devicePerCss: number,
    readonly frameId: string,
  ) {
    const n = doc.nodes;
    this.parents = n.parentIndex ?? [];
    this.pseudo = new Set(n.pseudoType?.index ?? []);
    const shadowIdx = n.shadowRootType?.index ?? [];
    for (let k = 0; k < shadowIdx.length; k++)
      this.mode.set(shadowIdx[k] as number, this.str(n.shadowRootType?.value[k]));
    for (let i = 0; i < this.parents.length; i++) {
      const p = this.parents[i] ?? -1;
      if (p < 0 || this.pseudo.has(i)) continue;
      const t = this.nodeType(i);
      if (this.mode.get(i) === 'open' && !this.mode.has(p)) this.hosts.add(p);
      if (t === ELEMENT_NODE || t === TEXT_NODE) push(this.flatKids, p, i);
    }
    const layoutNodes = doc.layout.nodeIndex;
    for (let li = 0; li < layoutNodes.length; li++) {
      const ni = layoutNodes[li] as number;
      if (!this.layoutOf.has(ni)) this.layoutOf.set(ni, li);
    }
    this.kit = identityKit<number>(this, IDENTITY_LISTS);
  }

  /** Inside a closed or user-agent shadow tree: the page cannot see it, so neither does the kit. */
  private hidden(i: number): boolean {
    const m = this.mode.get(i);
    return m !== undefined && m !== 'open';
  }

  // TreeView (the flat tree, with closed and user-agent shadow trees stepped over) -------------------------
  parent(i: number): number | null {
    let p = this.parents[i] ?? -1;
    while (p >= 0 && this.hidden(p)) p = this.parents[p] ?? -1;
    return p >= 0 && this.nodeType(p) === ELEMENT_NODE ? p : null;
  }
  inShadow(i: number): boolean {
    return this.mode.has(i);
  }
  isHost(i: number): boolean {
    return this.hosts.has(i);
  }
  kids(i: number): Array<number | string> {
    const hit = this.kidCache.get(i);
    if (hit) return hit;
    const out: Array<number | string> = [];
    const add = (list: number[]) => {
      for (const k of list) {
        // A closed component's slotted light children are its children, as the page sees them.
        if (this.hidden(k)) {
          if (this.nodeType(k) === ELEMENT_NODE) add(this.flatKids.get(k) ?? []);
        } else if (this.nodeType(k) === TEXT_NODE) out.push(this.str(this.doc.nodes.nodeValue?.[k]));
        else out.push(k);
      }
    };
    add(this.flatKids.get(i) ?? []);
    this.kidCache.set(i, out);
    return out;
  }
  tag(i: number): string {
    return this.str(this.doc.nodes.nodeName?.[i]).toUpperCase();
  }
  attrs(i: number): Record<string, string> {
    const hit = this.attrCache.get(i);
    if (hit) return hit;
    const flat = this.doc.nodes.attributes?.[i] ?? [];
    const out: Record<string, string> = {};
    for (let k = 0; k + 1 < flat.length; k += 2) out[this.str(flat[k]).toLowerCase()] = this.str(flat[k + 1]);
    this.attrCache.set(i, out);
    return out;
  }
  isPseudo(i: number): boolean {
    return this.pseudo.has(i);
  }

  // Reads for the index ------------------------------------------------------------------------------------
  str(i: number | undefined): string {
    return i === undefined || i < 0 ? '' : (this.strings[i] ?? '');
  }
  nodeType(i: number): number {
    return this.doc.nodes.nodeType?.[i] ?? 0;
  }
  get nodeCount(): number {
    return this.parents.length;
  }
  get layoutCount(): number {
    return this.doc.layout.nodeIndex.length;
  }
  layoutNode(li: number): number {
    return this.doc.layout.nodeIndex[li] ?? -1;
  }
  paintOrder(li: number): number {
    return this.doc.layout.paintOrders?.[li] ?? 0;
  }
  style(li: number, name: (typeof SNAPSHOT_STYLES)[number]): string {
    return this.str(this.doc.layout.styles[li]?.[SNAPSHOT_STYLES.indexOf(name)]);
  }
  styleOfNode(ni: number, name: (typeof SNAPSHOT_STYLES)[number]): string {
    const li = this.layoutOf.get(ni);
    return li === undefined ? '' : this.style(li, name);
  }
  get scroll(): { x: number; y: number } {
    return {
      x: (this.doc.scrollOffsetX ?? 0) / this.devicePerCss,
      y: (this.doc.scrollOffsetY ?? 0) / this.devicePerCss,
    };
  }
  /** Layout box of a layout node, in CSS px of this document. */
  box(li: number): Box {
    const [x = 0, y = 0, width = 0, height = 0] = this.doc.layout.bounds[li] ?? [];
    const k = this.devicePerCss;
    return { x: x / k, y: y / k, width: width / k, height: height / k };
  }
  boundsOf(ni: number): Box | undefined {
    const li = this.layoutOf.get(ni);
    return li === undefined ? undefined : this.box(li);
  }
  /** Untransformed width and height (offsetWidth/Height), CSS px; undefined for text boxes. */
  offsetSizeOf(ni: number): { width: number; height: number } | undefined {
    const li = this.layoutOf.get(ni);
    const r = li === undefined ? undefined : this.doc.layout.offsetRects?.[li];
    if (!r || r.length < 4) return undefined;
    // Unlike bounds, offset and client rects come in CSS px whatever the scale factor (seen at a real DSF 2).
    return { width: r[2] ?? 0, height: r[3] ?? 0 };
  }
  /** The box inside borders and scrollbars (clientLeft/Top/Width/Height), in CSS px of this document. */
  clientBoxOf(ni: number): Box | undefined {
    const li = this.layoutOf.get(ni);
    const b = li === undefined ? undefined : this.box(li);
    const r = li === undefined ? undefined : this.doc.layout.clientRects?.[li];
    if (!b || !r || r.length < 4) return undefined;
    const [cl = 0, ct = 0, cw = 0, ch = 0] = r;
    return { x: b.x + cl, y: b.y + ct, width: cw, height: ch };
  }
  px(ni: number, name: (typeof SNAPSHOT_STYLES)[number]): number {
    return Number.parseFloat(this.styleOfNode(ni, name)) || 0;
  }
  /** The document index an iframe element shows (same-process frames only). */
  contentDocument(ni: number): number | undefined {
    const c = this.doc.nodes.contentDocumentIndex;
    if (!c) return undefined;
    const k = c.index.indexOf(ni);
    return k < 0 ? undefined : c.value[k];
  }
  backendId(ni: number): number {
    return this.doc.nodes.backendNodeId?.[ni] ?? -1;
  }
  indexOfBackendId(id: number): number {
    return (this.doc.nodes.backendNodeId ?? []).indexOf(id);
  }
  private docElement: number | undefined;
  documentElement(): number {
    if (this.docElement === undefined) {
      this.docElement = -1;
      for (let i = 0; i < this.parents.length; i++) {
        if (this.nodeType(i) === ELEMENT_NODE && this.parent(i) === null) {
          this.docElement = i;
          break;
        }
      }
    }
    return this.docElement;
  }

  private rare(data: Protocol.DOMSnapshot.RareStringData | undefined, i: number): string | undefined {
    if (!data) return undefined;
    const k = data.index.indexOf(i);
    return k < 0 ? undefined : this.str(data.value[k]);
  }

  private labelFor: Map<string, number> | undefined;
  private labelText(i: number, attrs: Record<string, string>): string | undefined {
    for (let p = this.parent(i); p !== null; p = this.parent(p))
      if (this.tag(p) === 'LABEL') return this.kit.text(p);
    if (!attrs.id) return undefined;
    if (!this.labelFor) {
      // Built once: looking labels up per element would make marks on a large page quadratic.
      this.labelFor = new Map();
      for (let n = 0; n < this.parents.length; n++) {
        const target = this.tag(n) === 'LABEL' ? this.attrs(n).for : undefined;
        if (target && !this.labelFor.has(target)) this.labelFor.set(target, n);
      }
    }
    const label = this.labelFor.get(attrs.id);
    return label === undefined ? undefined : this.kit.text(label);
  }

  /** The facts of one element, as the live side reads them (guard-script.ts builds the same shape). */
  factsOf(ni: number, toViewport: (b: Box) => Box): ElementFacts {
    const { actionable, ...shared } = this.kit.fingerprint(ni);
    const facts: ElementFacts = { backendNodeId: this.backendId(ni), ...shared };
    if (this.frameId) facts.frame = this.frameId;
    const value = this.rare(this.doc.nodes.inputValue, ni);
    if (value !== undefined) facts.value = value;
    if (this.doc.nodes.inputChecked && facts.tag === 'INPUT')
      facts.checked = this.doc.nodes.inputChecked.index.includes(ni);
    const label = this.labelText(ni, this.attrs(ni));
    if (label) facts.labelText = label;
    if (actionable) {
      const { node, ...control } = actionable;
      facts.actionable = control;
      const ob = this.boundsOf(node);
      if (ob) facts.actionable.rect = toViewport(ob);
    }
    const b = this.boundsOf(ni);
    if (b) facts.rect = toViewport(b);
    return facts;
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

export type { Snapshot };
