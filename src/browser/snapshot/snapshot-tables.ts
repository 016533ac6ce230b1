import type { Protocol } from 'devtools-protocol';

// How a document of a DOM snapshot is held once read: typed arrays and a string table of its own, so a
// kept frame of a long page costs bytes per node, not JS objects per node.

type DocumentSnapshot = Protocol.DOMSnapshot.DocumentSnapshot;

/** Computed styles read with every snapshot, in this order. */
export const SNAPSHOT_STYLES = [
  'pointer-events',
  'visibility',
  'cursor',
  'display',
  'border-left-width',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  'padding-left',
  'padding-top',
  'overflow-x',
  'overflow-y',
  'position',
  'transform',
] as const;

/**
 * The layout part of a snapshot, one row per layout box: typed arrays, so a frame of a long page costs
 * bytes per box, not a JS array per box.
 */
export interface LayoutTable {
  nodes: Int32Array;
  /** String indexes, SNAPSHOT_STYLES.length per box. */
  styles: Int32Array;
  /** x, y, width, height in snapshot units. */
  bounds: Float64Array;
  paint: Int32Array;
  /** offsetWidth, offsetHeight (CSS px); NaN where the box has none or it was not measured. */
  offset: Float64Array;
  /** clientLeft, clientTop, clientWidth, clientHeight (CSS px); NaN where not measured. */
  client: Float64Array;
}

export const STYLE_COUNT = SNAPSHOT_STYLES.length;

export function layoutTable(l: DocumentSnapshot['layout'], strings: Strings): LayoutTable {
  const n = l.nodeIndex.length;
  const t: LayoutTable = {
    nodes: Int32Array.from(l.nodeIndex),
    styles: new Int32Array(n * STYLE_COUNT).fill(-1),
    bounds: new Float64Array(n * 4),
    paint: new Int32Array(n),
    offset: new Float64Array(n * 2).fill(Number.NaN),
    client: new Float64Array(n * 4).fill(Number.NaN),
  };
  for (let li = 0; li < n; li++) {
    const st = l.styles[li] ?? [];
    for (let k = 0; k < STYLE_COUNT; k++) t.styles[li * STYLE_COUNT + k] = strings.id(st[k]);
    const b = l.bounds[li] ?? [];
    for (let k = 0; k < 4; k++) t.bounds[li * 4 + k] = b[k] ?? 0;
    t.paint[li] = l.paintOrders?.[li] ?? 0;
    const o = l.offsetRects?.[li];
    if (o && o.length >= 4) t.offset.set([o[2] ?? 0, o[3] ?? 0], li * 2);
    const c = l.clientRects?.[li];
    if (c && c.length >= 4) t.client.set(c.slice(0, 4), li * 4);
  }
  return t;
}

export function pickLayout(t: LayoutTable, rows: number[]): LayoutTable {
  const out: LayoutTable = {
    nodes: new Int32Array(rows.length),
    styles: new Int32Array(rows.length * STYLE_COUNT),
    bounds: new Float64Array(rows.length * 4),
    paint: new Int32Array(rows.length),
    offset: new Float64Array(rows.length * 2),
    client: new Float64Array(rows.length * 4),
  };
  rows.forEach((li, r) => {
    out.nodes[r] = t.nodes[li] as number;
    out.styles.set(t.styles.subarray(li * STYLE_COUNT, (li + 1) * STYLE_COUNT), r * STYLE_COUNT);
    out.bounds.set(t.bounds.subarray(li * 4, li * 4 + 4), r * 4);
    out.paint[r] = t.paint[li] as number;
    out.offset.set(t.offset.subarray(li * 2, li * 2 + 2), r * 2);
    out.client.set(t.client.subarray(li * 4, li * 4 + 4), r * 4);
  });
  return out;
}

/**
 * The strings one document uses, re-indexed: a snapshot's string table holds every string of every
 * document (inline style attributes alone are one long unique string per element on a grid), and keeping
 * it would keep them all.
 */
export class Strings {
  readonly list: string[] = [];
  private readonly ids: Int32Array;
  constructor(private readonly source: string[]) {
    this.ids = new Int32Array(source.length).fill(-1);
  }
  id(i: number | undefined): number {
    if (i === undefined || i < 0 || i >= this.source.length) return -1;
    let k = this.ids[i] as number;
    if (k < 0) {
      k = this.list.push(this.source[i] as string) - 1;
      this.ids[i] = k;
    }
    return k;
  }
}

/** A per-node list (attributes, children) as one flat array and where each node's part starts. */
export interface Packed {
  start: Uint32Array;
  data: Int32Array;
}

export function pack(count: number, listOf: (i: number) => ArrayLike<number> | undefined): Packed {
  const start = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) start[i + 1] = (start[i] as number) + (listOf(i)?.length ?? 0);
  const data = new Int32Array(start[count] as number);
  for (let i = 0; i < count; i++) {
    const l = listOf(i);
    if (l) data.set(l, start[i] as number);
  }
  return { start, data };
}

export const packed = (p: Packed, i: number) =>
  p.data.subarray(p.start[i] as number, p.start[i + 1] as number);

export const sparse = (d: { index: number[]; value: number[] } | undefined) =>
  new Map((d?.index ?? []).map((n, k) => [n, d?.value[k] ?? -1]));
