/**
 * What `viewWalk` returns, as JSON: a document of a DOM snapshot, pruned to what the viewport shows.
 * Strings are indexes into `strings`; node fields are per node, in flat-tree order.
 */
export interface WalkRecord {
  strings: string[];
  parent: number[];
  type: number[];
  name: number[];
  /** Text of text nodes (a string index), -1 for other nodes. */
  value: number[];
  /** Flat [name, value, …] string indexes per node; empty for stubs and text. */
  attrs: number[][];
  /** Nodes inside an open shadow tree. */
  shadow: number[];
  inputValue: Array<[number, number]>;
  checked: number[];
  selected: number[];
  /** Layout rows: node, x, y, width, height (device px of the document), paint order, then the styles. */
  layout: number[][];
  scroll: [number, number];
  /** Device px per CSS px, which the coordinates above are in. */
  dpr: number;
  /** Nodes whose elements are handed back beside the JSON (their backendNodeIds), in that order. */
  handed: number[];
}

/**
 * The in-page side of the viewport record (view-record.ts): runs in the guard's isolated world, its source
 * sent as is, so it uses no imports and no outer variables.
 *
 * Every element of the flat tree is looked at once (its bounding box); those the viewport shows and their
 * ancestors are kept whole (attributes, form state, layout, styles), and so is what the identity kit reads
 * around them: each kept element's subtree up to its text budget, four sibling elements on each side with
 * theirs, and the labels that name them by `for`. Other children of kept elements are stubs (a tag), so
 * counting siblings still counts them. Paint order is DOMSnapshot's: one number per paint layer, given in
 * stacking order (CSS 2.1 appendix E), so the index ranks hits as it ranks a snapshot's.
 *
 * @param styles the computed styles each layout row carries (SNAPSHOT_STYLES).
 * @param textBudget characters of subtree text the kit reads of an element (identity.ts `text`).
 */
export function viewWalk(
  styles: readonly string[],
  textBudget: number,
): { json: string; els: Element[] } | null {
  const W = innerWidth;
  const H = innerHeight;
  const dpr = devicePixelRatio;
  const sx = scrollX;
  const sy = scrollY;
  const ELEMENT = 1;
  const TEXT = 3;
  const SKIP_TEXT = ['STYLE', 'SCRIPT', 'TEMPLATE', 'NOSCRIPT'];
  // An element without a box (display: none, contents) reads as an empty rect at the origin.
  const hasBox = (r: DOMRect) => r.width > 0 || r.height > 0 || r.x !== 0 || r.y !== 0;
  const inView = (r: DOMRect) => r.right > 0 && r.bottom > 0 && r.left < W && r.top < H;

  // The flat tree, as DOMSnapshot reports it: a host's children are its open shadow root's, a slot's are
  // the nodes assigned to it (else its own).
  const kidsOf = (n: Node): Node[] => {
    const out: Node[] = [];
    let list: ArrayLike<Node> | null = null;
    if (n.nodeType === ELEMENT) {
      const e = n as Element;
      if (e.shadowRoot) list = e.shadowRoot.childNodes;
      else if (e.localName === 'slot') {
        const a = (e as HTMLSlotElement).assignedNodes();
        if (a.length > 0) list = a;
      }
    }
    if (list === null) list = n.childNodes;
    for (let i = 0; i < list.length; i++) {
      const k = list[i] as Node;
      if (k.nodeType === ELEMENT || k.nodeType === TEXT) out.push(k);
    }
    return out;
  };
  const kidCache = new Map<Node, Node[]>();
  const kids = (n: Node): Node[] => {
    let k = kidCache.get(n);
    if (!k) {
      k = kidsOf(n);
      kidCache.set(n, k);
    }
    return k;
  };

  // 1. Every element's box: those in the viewport, with their ancestors, are kept.
  const kept = new Set<Element>();
  const boxes = new Map<Element, DOMRect>();
  const path: Element[] = [];
  const visit = (e: Element) => {
    const r = e.getBoundingClientRect();
    if (hasBox(r) && inView(r)) {
      boxes.set(e, r);
      kept.add(e);
      for (let i = path.length - 1; i >= 0 && !kept.has(path[i] as Element); i--)
        kept.add(path[i] as Element);
    }
    path.push(e);
    const sr = e.shadowRoot;
    if (sr) for (let c = sr.firstElementChild; c; c = c.nextElementSibling) visit(c);
    else if (e.localName === 'slot') {
      for (const k of kids(e)) if (k.nodeType === ELEMENT) visit(k as Element);
    } else for (let c = e.firstElementChild; c; c = c.nextElementSibling) visit(c);
    path.pop();
  };
  const root = document.documentElement;
  if (!root) return null;
  visit(root);
  // Documents inside frames are not walked: the caller takes a DOM snapshot instead.
  for (const e of kept) if (/^(IFRAME|FRAME|OBJECT|EMBED)$/.test(e.tagName)) return null;
  // A positioned ::before or ::after that takes clicks can reach outside its element (Bootstrap's stretched
  // link covers the whole card): script cannot read a pseudo-element's box, so a snapshot reads the page
  // instead. One placed inside its own positioned element (AG Grid's header lines, Ionic's item backgrounds)
  // is read as the element.
  for (const e of kept)
    for (const pseudo of ['::before', '::after']) {
      const ps = getComputedStyle(e, pseudo);
      if (ps.position === 'static' || ps.content === 'none' || ps.content === 'normal') continue;
      if (ps.pointerEvents === 'none' || ps.display === 'none') continue;
      if (ps.position !== 'absolute' || getComputedStyle(e).position === 'static') return null;
      const [top, left, width, height] = [ps.top, ps.left, ps.width, ps.height].map(Number.parseFloat);
      const inside =
        (top as number) >= -1 &&
        (left as number) >= -1 &&
        (left as number) + (width as number) <= e.clientWidth + 1 &&
        (top as number) + (height as number) <= e.clientHeight + 1;
      if (!inside) return null;
    }

  // 2. What the kit reads around them is included whole too.
  const full = new Set<Node>(kept);
  const prefix = (top: Element) => {
    let chars = 0;
    let elements = 0;
    let nodes = 0;
    const walk = (n: Node): boolean => {
      for (const k of kids(n)) {
        if (chars >= textBudget && elements >= 100) return false;
        if (++nodes > 4000) return false;
        full.add(k);
        if (k.nodeType === TEXT) chars += (k.nodeValue ?? '').length;
        else {
          elements++;
          if (!SKIP_TEXT.includes((k as Element).tagName) && !walk(k)) return false;
        }
      }
      return true;
    };
    walk(top);
  };
  const parentOf = new Map<Node, Element>();
  const link = (p: Element) => {
    for (const k of kids(p)) parentOf.set(k, p);
  };
  for (const e of kept) link(e);
  const around = new Set<Element>(kept);
  const siblings = new Map<Element, { list: Element[]; at: Map<Element, number> }>();
  for (const e of kept) {
    const p = parentOf.get(e);
    if (!p) continue;
    let s = siblings.get(p);
    if (!s) {
      const list = kids(p).filter((k) => k.nodeType === ELEMENT) as Element[];
      s = { list, at: new Map(list.map((k, i) => [k, i])) };
      siblings.set(p, s);
    }
    const i = s.at.get(e) ?? -1;
    for (let d = -4; d <= 4; d++) {
      const sib = s.list[i + d];
      if (sib) around.add(sib);
    }
  }
  const ids = new Set<string>();
  for (const e of kept) if (e.id) ids.add(e.id);
  const labels: Element[] = [];
  if (ids.size > 0)
    for (const l of Array.from(document.querySelectorAll('label[for]')))
      if (ids.has(l.getAttribute('for') ?? '') && !full.has(l)) labels.push(l);
  for (const e of around) {
    full.add(e);
    prefix(e);
  }
  for (const l of labels) {
    full.add(l);
    prefix(l);
  }

  // 3. The nodes, in flat-tree order; then the orphan labels.
  const strings: string[] = [];
  const stringIds = new Map<string, number>();
  const str = (s: string) => {
    let k = stringIds.get(s);
    if (k === undefined) {
      k = strings.push(s) - 1;
      stringIds.set(s, k);
    }
    return k;
  };
  const out: WalkRecord = {
    strings,
    parent: [],
    type: [],
    name: [],
    value: [],
    attrs: [],
    shadow: [],
    inputValue: [],
    checked: [],
    selected: [],
    layout: [],
    scroll: [sx * dpr, sy * dpr],
    dpr,
    handed: [],
  };
  const index = new Map<Element, number>();
  const nodes: Node[] = [];
  const add = (n: Node, parent: number, whole: boolean): number => {
    const i = out.parent.push(parent) - 1;
    nodes.push(n);
    out.type.push(n.nodeType);
    out.name.push(str(n.nodeName));
    out.value.push(n.nodeType === TEXT ? str((n.nodeValue ?? '').slice(0, textBudget)) : -1);
    const attrs: number[] = [];
    if ((n.getRootNode() as ShadowRoot).host) out.shadow.push(i);
    if (whole && n.nodeType === ELEMENT) {
      const e = n as Element;
      index.set(e, i);
      for (const a of Array.from(e.attributes)) if (a.name !== 'style') attrs.push(str(a.name), str(a.value));
      const tag = e.tagName;
      if (tag === 'INPUT' || tag === 'TEXTAREA') {
        const f = e as HTMLInputElement;
        out.inputValue.push([i, str(f.value)]);
        if (tag === 'INPUT' && f.checked) out.checked.push(i);
      } else if (tag === 'OPTION' && (e as HTMLOptionElement).selected) out.selected.push(i);
    }
    out.attrs.push(attrs);
    return i;
  };
  const emit = (n: Node, parent: number) => {
    const i = add(n, parent, true);
    if (n.nodeType !== ELEMENT) return;
    for (const k of kids(n)) {
      if (full.has(k)) emit(k, i);
      else if (k.nodeType === ELEMENT) add(k, i, false);
    }
  };
  add(document, -1, false);
  emit(root, 0);
  for (const l of labels) if (!index.has(l)) emit(l, -1);

  // 4. Layout rows of the kept elements that have a box, with their styles and paint layers.
  const rows: Array<{ e: Element; i: number; r: DOMRect; cs: CSSStyleDeclaration }> = [];
  for (const e of kept) {
    const r = boxes.get(e) ?? e.getBoundingClientRect();
    if (!hasBox(r) && e !== root) continue;
    rows.push({ e, i: index.get(e) as number, r, cs: getComputedStyle(e) });
  }
  rows.sort((a, b) => a.i - b.i);
  const styleOf = new Map<Element, CSSStyleDeclaration>(rows.map((r) => [r.e, r.cs]));
  const topLayer = (e: Element) => {
    try {
      return e.matches(':modal, :popover-open');
    } catch {
      return e.matches(':modal');
    }
  };
  const none = (v: string) => v === '' || v === 'none' || v === 'auto' || v === 'normal';
  const stackingContext = (e: Element, cs: CSSStyleDeclaration): boolean => {
    if (e === root) return true;
    const pos = cs.position;
    const z = cs.zIndex !== 'auto';
    if (pos === 'fixed' || pos === 'sticky') return true;
    if (z && pos !== 'static') return true;
    if (z) {
      const flat = up(e);
      const p = flat ? styleOf.get(flat) : undefined;
      if (p && /flex|grid/.test(p.display)) return true;
    }
    return (
      Number.parseFloat(cs.opacity) < 1 ||
      !none(cs.transform) ||
      !none(cs.translate) ||
      !none(cs.rotate) ||
      !none(cs.scale) ||
      !none(cs.filter) ||
      !none(cs.backdropFilter) ||
      !none(cs.clipPath) ||
      !none(cs.getPropertyValue('mask-image') || cs.getPropertyValue('-webkit-mask-image')) ||
      !none(cs.perspective) ||
      cs.mixBlendMode !== 'normal' ||
      cs.isolation === 'isolate' ||
      /transform|opacity|filter|perspective|clip-path|mask|isolation|z-index/.test(cs.willChange) ||
      /paint|layout|strict|content/.test(cs.contain) ||
      /size/.test(cs.containerType) ||
      topLayer(e)
    );
  };
  // A replaced element (an image, a canvas, a video, an svg) clips its own content without a layer of its
  // own, though it computes `overflow: clip`: later content laid over it paints above it.
  const replaced = (e: Element) => /^(img|canvas|video|svg|audio)$/.test(e.localName);
  const hasLayer = (e: Element, cs: CSSStyleDeclaration, sc: boolean): boolean =>
    sc ||
    cs.position !== 'static' ||
    cs.backfaceVisibility === 'hidden' ||
    cs.columnCount !== 'auto' ||
    (cs.display !== 'inline' && !replaced(e) && (cs.overflowX !== 'visible' || cs.overflowY !== 'visible')) ||
    /^(IFRAME|FRAME|EMBED|OBJECT)$/.test(e.tagName);
  interface Layer {
    e: Element;
    sc: boolean;
    z: number;
    top: boolean;
    neg: Layer[];
    flow: Layer[];
    pos: Layer[];
    order: number;
  }
  const layerOf = new Map<Element, Layer>();
  const up = (e: Element): Element | null => {
    const p = parentOf.get(e);
    return p ?? null;
  };
  const enclosing = (e: Element | null, want: (l: Layer) => boolean): Layer | null => {
    for (let x = e; x; x = up(x)) {
      const l = layerOf.get(x);
      if (l && want(l)) return l;
    }
    return null;
  };
  let rootLayer: Layer | null = null;
  for (const { e, cs } of rows) {
    const sc = stackingContext(e, cs);
    if (!hasLayer(e, cs, sc) && e !== root) continue;
    const top = topLayer(e);
    const l: Layer = {
      e,
      sc,
      z: sc ? Number.parseInt(cs.zIndex, 10) || 0 : 0,
      top,
      neg: [],
      flow: [],
      pos: [],
      order: 0,
    };
    layerOf.set(e, l);
    if (!rootLayer) {
      rootLayer = l;
      continue;
    }
    const stacked = sc || cs.position !== 'static';
    if (top) rootLayer.pos.push(l);
    else if (stacked) {
      const ctx = enclosing(up(e), (x) => x.sc) ?? rootLayer;
      (l.z < 0 ? ctx.neg : ctx.pos).push(l);
    } else (enclosing(up(e), () => true) ?? rootLayer).flow.push(l);
  }
  let next = 1;
  // The top layer (a modal dialog, an open popover) paints last, in the order it was entered (tree order here).
  const byZ = (a: Layer, b: Layer) => (a.top ? 1 : 0) - (b.top ? 1 : 0) || (a.top ? 0 : a.z - b.z);
  const order = (l: Layer) => {
    l.order = next++;
    for (const c of [...l.neg].sort(byZ)) order(c);
    for (const c of l.flow) order(c);
    for (const c of [...l.pos].sort(byZ)) order(c);
  };
  if (rootLayer) order(rootLayer);
  // A row as DOMSnapshot's: the box in device px of the document, the paint layer's number, the styles.
  const layoutRow = (i: number, r: DOMRect, owner: Element, cs: CSSStyleDeclaration) => {
    const paint = enclosing(owner, () => true)?.order ?? 0;
    const row = [i, (r.x + sx) * dpr, (r.y + sy) * dpr, r.width * dpr, r.height * dpr, paint];
    for (const st of styles) row.push(str(cs.getPropertyValue(st)));
    out.layout.push(row);
  };
  const els: Element[] = [];
  for (const { e, i, r, cs } of rows) {
    layoutRow(i, r, e, cs);
    out.handed.push(i);
    els.push(e);
  }
  // Text boxes: a hit on text slotted into a component names the element the text sits in, not the
  // component's own box around it, as the live hit-test does.
  const range = document.createRange();
  for (let ti = 0; ti < nodes.length; ti++) {
    const t = nodes[ti] as Node;
    const p = nodes[out.parent[ti] as number];
    if (t.nodeType !== TEXT || !p || p.nodeType !== ELEMENT) continue;
    const pe = p as Element;
    if (!kept.has(pe) && pe.localName !== 'slot') continue;
    range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && inView(r))
      layoutRow(ti, r, pe, styleOf.get(pe) ?? getComputedStyle(pe));
  }
  out.layout.sort((a, b) => (a[0] as number) - (b[0] as number));
  return { json: JSON.stringify(out), els };
}
