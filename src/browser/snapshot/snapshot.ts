import type { ElementFacts } from '../identity/element-facts.js';
import {
  type BoxModelQuads,
  compose,
  contentSize,
  type FramePlace,
  isTranslation,
  mapBox,
  placeAt,
  placeFromBoxModel,
  toInner,
  toOuter,
} from '../identity/frame-place.js';
import { type Box, type Snapshot, SnapshotDoc } from './snapshot-doc.js';
import { clipAt, clipTo, framePlace, inside, insideShape, intersects } from './snapshot-shapes.js';

export { SNAPSHOT_STYLES } from './snapshot-doc.js';

const ELEMENT_NODE = 1;
/** A label gets no mark of its own: the control it labels has one, and clicking either does the same. */
const MARKED_TAGS = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY']);

export interface SnapshotElement {
  index: number;
  doc: SnapshotDoc;
  facts: ElementFacts;
  /** Page (top document) CSS px. */
  bounds: Box;
}

/** Sizes measured live for one element of a snapshot (SnapshotDoc.measured). */
export interface Measurement {
  frame: string;
  backendNodeId: number;
  values: number[];
}

/** An iframe's document that lives in another renderer process, captured through its own CDP session. */
export interface FrameSnapshot {
  /** backendNodeId of the <iframe> element, in the document of the snapshot that holds it. */
  ownerBackendNodeId: number;
  snapshot: Snapshot;
  devicePerCss: number;
  /** This frame's place in the list of frame snapshots (its `holder` names it so). */
  id?: number;
  /** Whose snapshot holds its <iframe>: another frame snapshot's `id`, or the page's (null, unset). */
  holder?: number | null;
}

/** Where a document's points sit in the top document: top page point = toOuter(place, q); visible only in clip. */
interface Placement {
  doc: SnapshotDoc;
  place: FramePlace;
  clip: Box;
  /**
   * A cross-site frame's document: the live hit-test asks its own process at whole px of the frame, so a
   * point there is looked up at whole px too.
   */
  ownProcess?: true;
  /** The iframe element that shows this document, in its parent's placement. */
  owner?: { parent: Placement; ni: number };
  /** The placement whose document is the top of this one's process (the page, or a cross-site frame). */
  processTop?: Placement;
  /** The document's part its frame shows (document px), when a transform turned or scaled it. */
  shown?: Box;
}

/**
 * A DOM snapshot taken with the screenshot: answers "what was topmost at this point at capture time" and
 * "where was the element the agent describes", without touching the page again. It holds the page's
 * document and every iframe's document (same-process ones come in the same snapshot, out-of-process ones
 * through their own sessions), each placed where its iframe showed it.
 */
export class SnapshotIndex {
  private readonly placements: Placement[] = [];
  /** iframe element (doc, node index) → the placement of the document it shows. */
  private readonly childOf = new Map<SnapshotDoc, Map<number, Placement>>();

  /**
   * @param view the part of the page the frame shows (page CSS px): only layout boxes there (and their
   * ancestors') are kept, so a frame of a long page costs what its viewport holds. Unset: all are kept.
   */
  constructor(snapshot: Snapshot, devicePerCss = 1, frames: FrameSnapshot[] = [], view?: Box) {
    const docs = snapshot.documents.map(
      (d, i) =>
        new SnapshotDoc(
          snapshot.strings,
          d,
          devicePerCss,
          i === 0 ? '' : (snapshot.strings[d.frameId] ?? ''),
        ),
    );
    const main = docs[0];
    if (!main) return;
    const all: Box = { x: -1e9, y: -1e9, width: 2e9, height: 2e9 };
    const root: Placement = { doc: main, place: placeAt(0, 0), clip: all };
    this.placements.push(root);
    const queue: Placement[] = [root];
    // Each cross-site frame's snapshot holds its document and the frames of its own process below it.
    const extra = frames
      .filter((f) => f.snapshot.documents[0] !== undefined)
      .map((f) => ({
        f,
        docs: f.snapshot.documents.map(
          (d) => new SnapshotDoc(f.snapshot.strings, d, f.devicePerCss, f.snapshot.strings[d.frameId] ?? ''),
        ),
      }));
    // Document indexes are per snapshot: a document's child documents are looked up in its own snapshot.
    const groupOf = new Map<SnapshotDoc, SnapshotDoc[]>(docs.map((d) => [d, docs]));
    for (const e of extra) for (const d of e.docs) groupOf.set(d, e.docs);
    // Which snapshot each document came in: the page's (null) or a frame's id, to find the frames it holds.
    const holderOf = new Map<SnapshotDoc, number | null>(docs.map((d) => [d, null]));
    for (const e of extra) for (const d of e.docs) holderOf.set(d, e.f.id ?? -1);
    while (queue.length > 0) {
      const parent = queue.shift() as Placement;
      const d = parent.doc;
      const group = groupOf.get(d) ?? [];
      for (let ni = 0; ni < d.nodeCount; ni++) {
        if (d.tag(ni) !== 'IFRAME' && d.tag(ni) !== 'FRAME') continue;
        const childIndex = d.contentDocument(ni);
        const child =
          childIndex !== undefined
            ? group[childIndex]
            : extra.find(
                (e) => holderOf.get(d) === (e.f.holder ?? null) && e.f.ownerBackendNodeId === d.backendId(ni),
              )?.docs[0];
        const b = d.boundsOf(ni);
        if (!child || !b || child.layoutCount === 0) continue;
        const place = compose(parent.place, framePlace(d, ni, b, child.scroll));
        const p: Placement = { doc: child, place, clip: clipTo(parent.clip, mapBox(parent.place, b)) };
        if (childIndex === undefined) p.ownProcess = true;
        p.owner = { parent, ni };
        p.processTop = p.ownProcess ? p : (parent.processTop ?? root);
        this.placements.push(p);
        const m = this.childOf.get(d) ?? new Map<number, Placement>();
        this.childOf.set(d, m);
        m.set(ni, p);
        queue.push(p);
      }
    }
    if (!view) return;
    for (const p of this.placements) {
      const seen = clipTo(view, p.clip);
      p.doc.keepLayout(mapBox(p.place, seen, true));
    }
  }

  private get main(): Placement | undefined {
    return this.placements[0];
  }

  /** Layout boxes this index keeps, over all its documents (what a kept frame costs grows with it). */
  get layoutKept(): number {
    return this.placements.reduce((n, p) => n + p.doc.layoutCount, 0);
  }

  /**
   * Frames under a transform that turns or scales them, placed as the live hit-test places them: from the
   * iframe element's box model (CDP DOM.getBoxModel, asked of the session that holds its document), so
   * both sides agree to the pixel, which the snapshot's rounded bounds alone cannot.
   */
  async placeTransformed(
    boxModel: (frameId: string, backendNodeId: number) => Promise<BoxModelQuads | null>,
  ): Promise<void> {
    for (const p of this.placements) {
      const owner = p.owner;
      if (!owner || isTranslation(p.place)) continue;
      const model = await boxModel(owner.parent.doc.frameId, owner.parent.doc.backendId(owner.ni)).catch(
        () => null,
      );
      if (!model) continue;
      // The box model is in the viewport of the process's top document: from there, its own placement.
      const top = owner.parent.processTop ?? owner.parent;
      const viewportToPage = compose(top.place, placeAt(top.doc.scroll.x, top.doc.scroll.y));
      const content = placeFromBoxModel(model);
      const s = p.doc.scroll;
      p.place = compose(compose(viewportToPage, content), placeAt(-s.x, -s.y));
      const size = contentSize(model);
      p.shown = { x: s.x, y: s.y, width: size.width, height: size.height };
    }
  }

  /** Per document, the kept elements to measure live (SnapshotDoc.toMeasure). */
  toMeasure(): Array<{ doc: SnapshotDoc; nodes: number[] }> {
    return this.placements
      .map((p) => ({ doc: p.doc, nodes: p.doc.toMeasure() }))
      .filter((m) => m.nodes.length > 0);
  }

  get scroll(): { x: number; y: number } {
    return this.main?.doc.scroll ?? { x: 0, y: 0 };
  }

  private element(p: Placement, ni: number): SnapshotElement | null {
    // <html> may have no layout box of its own: as the page background it spans what its frame shows.
    const b =
      p.doc.boundsOf(ni) ?? (ni === p.doc.documentElement() ? mapBox(p.place, p.clip, true) : undefined);
    if (!b) return null;
    const s = this.scroll;
    const bounds = mapBox(p.place, b);
    const facts = p.doc.factsOf(ni, (box) => {
      const m = mapBox(p.place, box);
      return { ...m, x: m.x - s.x, y: m.y - s.y };
    });
    return { index: ni, doc: p.doc, facts, bounds };
  }

  /**
   * The element a click at this page point would have reached at capture time (pointer-events:none
   * skipped), inside iframes too, and as the live hit-test names it: a point in a shadow tree stands for
   * its host, and a point on no element is the page background (the <html> element), as it is live.
   */
  topmostAt(pageX: number, pageY: number, p = this.main): SnapshotElement | null {
    if (!p) return null;
    const d = p.doc;
    const { x: qx, y: qy } = toInner(p.place, { x: pageX, y: pageY });
    const hits: Array<{ li: number; order: number }> = [];
    for (let li = 0; li < d.layoutCount; li++) {
      if (!inside(d.box(li), qx, qy)) continue;
      if (d.style(li, 'pointer-events') === 'none' || d.style(li, 'visibility') === 'hidden') continue;
      hits.push({ li, order: d.paintOrder(li) });
    }
    // Highest paint order first; a later layout node wins a tie, as before.
    hits.sort((a, b) => b.order - a.order || b.li - a.li);
    let ni = -1;
    for (const h of hits) {
      let n = d.layoutNode(h.li);
      while (n >= 0 && (d.nodeType(n) !== ELEMENT_NODE || d.isPseudo(n))) n = d.ownerOf(n);
      if (n < 0 || !insideShape(d, n, qx, qy)) continue;
      const clip = clipAt(d, n, qx, qy);
      if (clip === 'clipped') continue;
      ni = clip ?? n;
      break;
    }
    if (ni < 0) ni = d.documentElement();
    if (ni < 0) return null;
    const child = this.childOf.get(d)?.get(ni);
    if (child && inside(child.clip, pageX, pageY)) {
      let at = { x: pageX, y: pageY };
      const q = toInner(child.place, at);
      if (child.ownProcess && !isTranslation(child.place))
        at = toOuter(child.place, { x: Math.round(q.x), y: Math.round(q.y) });
      // A turned frame's box holds points its content does not: those reach the iframe element's page.
      const shown = !child.shown || inside(child.shown, q.x, q.y);
      const inner = shown ? this.topmostAt(at.x, at.y, child) : null;
      if (inner) return inner;
    }
    return this.element(p, d.kit.canonical(ni));
  }

  /** Visible elements an agent would act on, in document order (for marks): one per control, shadow hosts for what is inside them. */
  interactiveElements(viewport: Box): SnapshotElement[] {
    const out: SnapshotElement[] = [];
    for (const p of this.placements) {
      const d = p.doc;
      const seen = new Set<number>();
      for (let li = 0; li < d.layoutCount; li++) {
        const raw = d.layoutNode(li);
        if (raw < 0 || d.nodeType(raw) !== ELEMENT_NODE) continue;
        if (d.style(li, 'visibility') === 'hidden' || d.style(li, 'pointer-events') === 'none') continue;
        const ni = d.kit.canonical(raw);
        if (seen.has(ni)) continue;
        const tag = d.tag(ni);
        const attrs = d.attrs(ni);
        const interactive =
          (MARKED_TAGS.has(tag) && !(tag === 'INPUT' && attrs.type === 'hidden')) ||
          (ni !== raw && d.kit.isActionable(ni)) ||
          (attrs.role !== undefined && d.kit.isActionable(ni)) ||
          'onclick' in attrs ||
          (d.style(li, 'cursor') === 'pointer' && !this.hasInteractiveAncestor(d, ni));
        if (!interactive) continue;
        const lb = d.box(li);
        const b = mapBox(p.place, lb);
        if (b.width < 2 || b.height < 2 || !intersects(b, viewport) || !intersects(b, p.clip)) continue;
        seen.add(ni);
        const el = this.element(p, ni);
        if (el) out.push(el);
      }
    }
    return out;
  }

  private hasInteractiveAncestor(d: SnapshotDoc, ni: number): boolean {
    for (let p = d.kit.composedParent(ni); p !== null; p = d.kit.composedParent(p)) {
      if (d.kit.isActionable(p) && d.tag(p) !== 'LABEL') return true;
      if (d.styleOfNode(p, 'cursor') === 'pointer') return true;
    }
    return false;
  }

  /** Elements with a layout box in this part of the page (page CSS px), for finding what `expect` describes. */
  *elements(view: Box): Generator<SnapshotElement> {
    for (const p of this.placements) {
      const d = p.doc;
      for (let li = 0; li < d.layoutCount; li++) {
        const ni = d.layoutNode(li);
        if (ni < 0 || d.nodeType(ni) !== ELEMENT_NODE) continue;
        // Bounds first: building facts (text, label, row) for every element of a long page costs tens of ms.
        const lb = d.box(li);
        const b = mapBox(p.place, lb);
        if (!intersects(b, view) || !intersects(b, p.clip)) continue;
        const el = this.element(p, ni);
        if (el && el.bounds.width > 0 && el.bounds.height > 0) yield el;
      }
    }
  }

  /** Whether `inner` lies inside `outer` in the composed tree (shadow roots included, same document). */
  contains(outer: SnapshotElement, inner: SnapshotElement): boolean {
    if (outer.doc !== inner.doc) return false;
    for (let x: number | null = inner.index; x !== null; x = inner.doc.kit.composedParent(x))
      if (x === outer.index) return true;
    return false;
  }

  /** The control an element belongs to (itself when it is one), as a snapshot element. */
  controlOf(el: SnapshotElement): number {
    return el.doc.kit.control(el.index) ?? el.index;
  }

  /**
   * The sizes measured live for this index (measureKept), by frame and backendNodeId: with the snapshot
   * itself, what rebuilds the same index away from the page (recorded corpus data for browser-free tests).
   */
  measurements(): Measurement[] {
    return this.placements.flatMap((p) =>
      p.doc
        .measurements()
        .map(([ni, values]) => ({ frame: p.doc.frameId, backendNodeId: p.doc.backendId(ni), values })),
    );
  }

  /** Puts back sizes `measurements()` gave, as measureKept would have. */
  restoreMeasurements(list: Measurement[]): void {
    for (const m of list) {
      const doc = this.placements.find((p) => p.doc.frameId === m.frame)?.doc;
      const ni = doc ? doc.indexOfBackendId(m.backendNodeId) : -1;
      if (doc && ni >= 0) doc.measured(ni, m.values);
    }
  }

  findByBackendId(backendNodeId: number, frame = ''): SnapshotElement | null {
    for (const p of this.placements) {
      if (p.doc.frameId !== frame) continue;
      const ni = p.doc.indexOfBackendId(backendNodeId);
      if (ni >= 0) return this.element(p, ni);
    }
    return null;
  }
}
