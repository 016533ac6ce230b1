import type { Protocol } from 'devtools-protocol';
import { type ElementFacts, IDENTITY_LISTS } from '../identity/element-facts.js';
import { type IdentityKit, identityKit, type TreeView } from '../identity/identity.js';
import {
  type LayoutTable,
  layoutTable,
  type Packed,
  pack,
  packed,
  pickLayout,
  SNAPSHOT_STYLES,
  STYLE_COUNT,
  Strings,
  sparse,
} from './snapshot-tables.js';

export { SNAPSHOT_STYLES } from './snapshot-tables.js';

type Snapshot = Protocol.DOMSnapshot.CaptureSnapshotResponse;
type DocumentSnapshot = Protocol.DOMSnapshot.DocumentSnapshot;

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

export type Box = { x: number; y: number; width: number; height: number };

/** Shadow tree modes, by code: 0 means not inside a shadow tree. */
const MODES = ['', 'open', 'closed', 'user-agent'];
const PSEUDO = 1;
const HOST = 2;

/**
 * One document of a DOM snapshot (the page, or one iframe's document) as a `TreeView` over node indexes,
 * so the identity kit reads it exactly as it reads the live page. It keeps the whole node tree (a fact reads
 * ancestors, children and siblings) in typed arrays, and, once `keepLayout` has run, only the layout boxes
 * the frame can point at: those in the part of the document it showed, and their ancestors'.
 */
export class SnapshotDoc implements TreeView<number> {
  readonly kit: IdentityKit<number>;
  private readonly parents: Int32Array;
  private readonly types: Uint8Array;
  private readonly names: Int32Array;
  private readonly values: Int32Array;
  private readonly backend: Int32Array;
  private readonly attrList: Packed;
  /** Flat-tree child nodes (elements and text), by node index. */
  private readonly flatKids: Packed;
  /** MODES code of each node. */
  private readonly modes: Uint8Array;
  private readonly flags: Uint8Array;
  private readonly contentDocs: Map<number, number>;
  private readonly inputValues: Map<number, number>;
  private readonly checked: Set<number>;
  private readonly selected: Set<number>;
  private readonly hasChecked: boolean;
  private layout: LayoutTable;
  /** The first layout box of each node that has one. */
  private layoutOf: Map<number, number>;
  readonly scroll: { x: number; y: number };
  private readonly kidCache = new Map<number, Array<number | string>>();
  private readonly attrCache = new Map<number, Record<string, string>>();

  /**
   * @param devicePerCss snapshot units per CSS px: 1 under emulation, but with a real scale factor
   * DOMSnapshot reports bounds and scroll in device px (DOM.getNodeForLocation still takes CSS px).
   * @param frameId the frame this document belongs to ('' for the page itself).
   */
  private readonly strings: string[];

  constructor(
    allStrings: string[],
    doc: DocumentSnapshot,
    private readonly devicePerCss: number,
    readonly frameId: string,
  ) {
    const n = doc.nodes;
    const count = n.parentIndex?.length ?? 0;
    const strings = new Strings(allStrings);
    this.parents = Int32Array.from(n.parentIndex ?? []);
    this.types = Uint8Array.from(n.nodeType ?? []);
    this.names = Int32Array.from(n.nodeName ?? [], (k) => strings.id(k));
    // Only text is read (element text, labels): comments and other nodes' values are not kept.
    this.values = Int32Array.from(n.nodeValue ?? [], (k, i) =>
      this.types[i] === TEXT_NODE ? strings.id(k) : -1,
    );
    this.backend = Int32Array.from(n.backendNodeId ?? []);
    const styleName = allStrings.indexOf('style');
    // Inline styles say how an element looks, not which one it is, and nothing reads them.
    this.attrList = pack(count, (i) => {
      const a = n.attributes?.[i];
      if (!a?.length) return undefined;
      const out: number[] = [];
      for (let k = 0; k + 1 < a.length; k += 2)
        if (a[k] !== styleName) out.push(strings.id(a[k]), strings.id(a[k + 1]));
      return out;
    });
    this.modes = new Uint8Array(count);
    this.flags = new Uint8Array(count);
    for (const i of n.pseudoType?.index ?? []) this.flags[i] = PSEUDO;
    const shadowIdx = n.shadowRootType?.index ?? [];
    for (let k = 0; k < shadowIdx.length; k++)
      this.modes[shadowIdx[k] as number] = Math.max(
        0,
        MODES.indexOf(allStrings[n.shadowRootType?.value[k] ?? -1] ?? ''),
      );
    const kids: number[][] = [];
    for (let i = 0; i < count; i++) {
      const p = this.parents[i] ?? -1;
      if (p < 0 || this.isPseudo(i)) continue;
      const t = this.nodeType(i);
      if (MODES[this.modes[i] as number] === 'open' && !this.modes[p])
        this.flags[p] = (this.flags[p] ?? 0) | HOST;
      if (t !== ELEMENT_NODE && t !== TEXT_NODE) continue;
      const list = kids[p];
      if (list) list.push(i);
      else kids[p] = [i];
    }
    this.flatKids = pack(count, (i) => kids[i]);
    this.contentDocs = sparse(n.contentDocumentIndex);
    this.inputValues = new Map([...sparse(n.inputValue)].map(([k, v]) => [k, strings.id(v)]));
    this.checked = new Set(n.inputChecked?.index ?? []);
    this.hasChecked = n.inputChecked !== undefined;
    this.selected = new Set(n.optionSelected?.index ?? []);
    this.scroll = { x: (doc.scrollOffsetX ?? 0) / devicePerCss, y: (doc.scrollOffsetY ?? 0) / devicePerCss };
    this.layout = layoutTable(doc.layout, strings);
    this.strings = strings.list;
    this.layoutOf = this.indexLayout();
    this.kit = identityKit<number>(this, IDENTITY_LISTS);
  }

  private indexLayout(): Map<number, number> {
    const of = new Map<number, number>();
    for (let li = this.layout.nodes.length - 1; li >= 0; li--) of.set(this.layout.nodes[li] as number, li);
    return of;
  }

  /**
   * Drops the layout boxes the frame cannot point at: those outside `region` (CSS px of this document),
   * unless an element kept lies inside them (a scroll container's clip, a control around a label span).
   */
  keepLayout(region: Box): void {
    const k = this.devicePerCss;
    const view = { x: region.x * k, y: region.y * k, width: region.width * k, height: region.height * k };
    const needed = new Uint8Array(this.parents.length);
    const b = this.layout.bounds;
    for (let li = 0; li < this.layout.nodes.length; li++) {
      const box = {
        x: b[li * 4] ?? 0,
        y: b[li * 4 + 1] ?? 0,
        width: b[li * 4 + 2] ?? 0,
        height: b[li * 4 + 3] ?? 0,
      };
      if (!intersectsBox(box, view)) continue;
      for (let n = this.layout.nodes[li] ?? -1; n >= 0 && !needed[n]; n = this.parents[n] ?? -1)
        needed[n] = 1;
    }
    const rows: number[] = [];
    for (let li = 0; li < this.layout.nodes.length; li++)
      if (needed[this.layout.nodes[li] as number]) rows.push(li);
    this.layout = pickLayout(this.layout, rows);
    this.layoutOf = this.indexLayout();
  }

  /** Inside a closed or user-agent shadow tree: the page cannot see it, so neither does the kit. */
  private hidden(i: number): boolean {
    return (this.modes[i] ?? 0) > 1;
  }

  // TreeView (the flat tree, with closed and user-agent shadow trees stepped over) -------------------------
  parent(i: number): number | null {
    let p = this.parents[i] ?? -1;
    while (p >= 0 && this.hidden(p)) p = this.parents[p] ?? -1;
    return p >= 0 && this.nodeType(p) === ELEMENT_NODE ? p : null;
  }
  inShadow(i: number): boolean {
    return (this.modes[i] ?? 0) > 0;
  }
  isHost(i: number): boolean {
    return ((this.flags[i] ?? 0) & HOST) !== 0;
  }
  kids(i: number): Array<number | string> {
    const hit = this.kidCache.get(i);
    if (hit) return hit;
    const out: Array<number | string> = [];
    const add = (list: Int32Array) => {
      for (const k of list) {
        // A closed component's slotted light children are its children, as the page sees them.
        if (this.hidden(k)) {
          if (this.nodeType(k) === ELEMENT_NODE) add(packed(this.flatKids, k));
        } else if (this.nodeType(k) === TEXT_NODE) out.push(this.str(this.values[k]));
        else out.push(k);
      }
    };
    add(packed(this.flatKids, i));
    this.kidCache.set(i, out);
    return out;
  }
  tag(i: number): string {
    return this.str(this.names[i]).toUpperCase();
  }
  attrs(i: number): Record<string, string> {
    const hit = this.attrCache.get(i);
    if (hit) return hit;
    const flat = packed(this.attrList, i);
    const out: Record<string, string> = {};
    for (let k = 0; k + 1 < flat.length; k += 2) out[this.str(flat[k]).toLowerCase()] = this.str(flat[k + 1]);
    this.attrCache.set(i, out);
    return out;
  }
  formState(i: number): string | null {
    const t = this.tag(i);
    if (t === 'OPTION') return this.selected.has(i) ? 'selected' : '';
    if (t !== 'INPUT' && t !== 'TEXTAREA') return null;
    const type = (this.attrs(i).type ?? '').toLowerCase();
    if (type === 'checkbox' || type === 'radio') return this.checked.has(i) ? 'on' : 'off';
    const value = this.inputValues.get(i);
    const text = value === undefined ? (this.attrs(i).value ?? '') : this.str(value);
    return type === 'password' ? `${text.length} characters` : text;
  }
  closedShadow(i: number): boolean {
    return this.hidden(i);
  }
  /**
   * The element a hit on a text or pseudo box names, as the live hit-test does: its parent, except that a
   * light-tree text slotted into a component names the light-tree element it sits in (the host, for text
   * slotted straight into it), not the slot, which has no box.
   */
  ownerOf(i: number): number {
    let p = this.parent(i);
    if (!this.inShadow(i)) while (p !== null && this.inShadow(p)) p = this.parent(p);
    return p ?? -1;
  }
  isPseudo(i: number): boolean {
    return ((this.flags[i] ?? 0) & PSEUDO) !== 0;
  }

  // Reads for the index ------------------------------------------------------------------------------------
  str(i: number | undefined): string {
    return i === undefined || i < 0 ? '' : (this.strings[i] ?? '');
  }
  nodeType(i: number): number {
    return this.types[i] ?? 0;
  }
  get nodeCount(): number {
    return this.parents.length;
  }
  get layoutCount(): number {
    return this.layout.nodes.length;
  }
  layoutNode(li: number): number {
    return this.layout.nodes[li] ?? -1;
  }
  paintOrder(li: number): number {
    return this.layout.paint[li] ?? 0;
  }
  style(li: number, name: (typeof SNAPSHOT_STYLES)[number]): string {
    return this.str(this.layout.styles[li * STYLE_COUNT + SNAPSHOT_STYLES.indexOf(name)]);
  }
  private layoutIndexOf(ni: number): number | undefined {
    return this.layoutOf.get(ni);
  }
  styleOfNode(ni: number, name: (typeof SNAPSHOT_STYLES)[number]): string {
    const li = this.layoutIndexOf(ni);
    return li === undefined ? '' : this.style(li, name);
  }
  /** Layout box of a layout node, in CSS px of this document. */
  box(li: number): Box {
    const b = this.layout.bounds;
    const k = this.devicePerCss;
    const at = (j: number) => (b[li * 4 + j] ?? 0) / k;
    return { x: at(0), y: at(1), width: at(2), height: at(3) };
  }
  boundsOf(ni: number): Box | undefined {
    const li = this.layoutIndexOf(ni);
    return li === undefined ? undefined : this.box(li);
  }
  /** Untransformed width and height (offsetWidth/Height), CSS px; undefined for text boxes and unmeasured ones. */
  offsetSizeOf(ni: number): { width: number; height: number } | undefined {
    const li = this.layoutIndexOf(ni);
    if (li === undefined) return undefined;
    const width = this.layout.offset[li * 2] ?? Number.NaN;
    const height = this.layout.offset[li * 2 + 1] ?? Number.NaN;
    return Number.isNaN(width) ? undefined : { width, height };
  }
  /** The box inside borders and scrollbars (clientLeft/Top/Width/Height) as measured, CSS px of this document. */
  clientBoxOf(ni: number): Box | undefined {
    const li = this.layoutIndexOf(ni);
    if (li === undefined) return undefined;
    const c = this.layout.client.subarray(li * 4, li * 4 + 4);
    if (Number.isNaN(c[0])) return this.paddingBoxOf(ni);
    const b = this.box(li);
    const [cl = 0, ct = 0, cw = 0, ch = 0] = c;
    return { x: b.x + cl, y: b.y + ct, width: cw, height: ch };
  }
  /** The box inside borders (scrollbars included), CSS px of this document. */
  paddingBoxOf(ni: number): Box | undefined {
    const b = this.boundsOf(ni);
    if (!b) return undefined;
    const l = this.px(ni, 'border-left-width');
    const t = this.px(ni, 'border-top-width');
    const width = Math.max(0, b.width - l - this.px(ni, 'border-right-width'));
    const height = Math.max(0, b.height - t - this.px(ni, 'border-bottom-width'));
    return { x: b.x + l, y: b.y + t, width, height };
  }
  /**
   * Kept elements whose checks need what the snapshot does not hold (asking Chromium for every box's
   * offset and client rects costs it a second on a 50 000-element page): offsetWidth/Height of what lies
   * under a transform, clientLeft/Top/Width/Height of a box that can scroll. Measured live, right after.
   */
  toMeasure(): number[] {
    const out: number[] = [];
    const underTransform = new Map<number, boolean>();
    const transformed = (n: number | null): boolean => {
      if (n === null) return false;
      const known = underTransform.get(n);
      if (known !== undefined) return known;
      const t = this.styleOfNode(n, 'transform');
      const v = (t !== '' && t !== 'none') || transformed(this.parent(n));
      underTransform.set(n, v);
      return v;
    };
    for (const ni of this.layoutOf.keys()) {
      if (this.nodeType(ni) !== ELEMENT_NODE || this.isPseudo(ni)) continue;
      const scrolls = [this.styleOfNode(ni, 'overflow-x'), this.styleOfNode(ni, 'overflow-y')].some(
        (o) => o === 'auto' || o === 'scroll' || o === 'overlay',
      );
      if (scrolls || transformed(ni)) out.push(ni);
    }
    return out;
  }
  /** What toMeasure's element measured live: offsetWidth/Height (negative: none), clientLeft/Top/Width/Height. */
  measured(ni: number, m: readonly number[]): void {
    const li = this.layoutIndexOf(ni);
    if (li === undefined || m.length < 6) return;
    const [ow = -1, oh = -1, ...client] = m;
    if (ow >= 0 && oh >= 0) this.layout.offset.set([ow, oh], li * 2);
    this.layout.client.set(client.slice(0, 4), li * 4);
  }
  /** What `measured` stored, by node index: [offsetWidth, offsetHeight (-1: none), clientLeft/Top/Width/Height]. */
  measurements(): Array<[number, number[]]> {
    const out: Array<[number, number[]]> = [];
    for (const [ni, li] of this.layoutOf) {
      const client = Array.from(this.layout.client.subarray(li * 4, li * 4 + 4));
      if (Number.isNaN(client[0])) continue;
      const [ow = Number.NaN, oh = Number.NaN] = this.layout.offset.subarray(li * 2, li * 2 + 2);
      out.push([ni, [Number.isNaN(ow) ? -1 : ow, Number.isNaN(oh) ? -1 : oh, ...client]]);
    }
    return out;
  }
  px(ni: number, name: (typeof SNAPSHOT_STYLES)[number]): number {
    return Number.parseFloat(this.styleOfNode(ni, name)) || 0;
  }
  /** The document index an iframe element shows (same-process frames only). */
  contentDocument(ni: number): number | undefined {
    return this.contentDocs.get(ni);
  }
  backendId(ni: number): number {
    return this.backend[ni] ?? -1;
  }
  indexOfBackendId(id: number): number {
    return this.backend.indexOf(id);
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
    const value = this.inputValues.get(ni);
    if (value !== undefined) facts.value = this.str(value);
    if (this.hasChecked && facts.tag === 'INPUT') facts.checked = this.checked.has(ni);
    const label = this.labelText(ni, this.attrs(ni));
    if (label) facts.labelText = label;
    if (actionable) {
      const { node, ...control } = actionable;
      facts.actionable = control;
      const ob = this.boundsOf(node);
      if (ob) facts.actionable.rect = toViewport(ob);
    }
    const stop = this.kit.blocked(ni);
    if (stop)
      facts.blocked = {
        reason: stop.reason,
        tag: this.kit.fingerprint(stop.by).tag,
        text: this.kit.text(stop.by),
      };
    const b = this.boundsOf(ni);
    if (b) facts.rect = toViewport(b);
    return facts;
  }
}

function intersectsBox(a: Box, b: Box): boolean {
  return a.x + a.width > b.x && a.y + a.height > b.y && a.x < b.x + b.width && a.y < b.y + b.height;
}

export type { Snapshot };
