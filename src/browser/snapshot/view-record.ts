import type { Protocol } from 'devtools-protocol';
import type { PageDriver } from '../plumbing/page-driver.js';
import { SNAPSHOT_STYLES } from './snapshot-tables.js';
import { viewWalk, type WalkRecord } from './view-walk.js';

type Snapshot = Protocol.DOMSnapshot.CaptureSnapshotResponse;

/** Characters of subtree text the identity kit reads of an element (identity.ts `text`). */
const TEXT_BUDGET = 2_000;

/**
 * From this many elements on, the viewport's record is read in the page instead of a DOM snapshot: the walk
 * costs about 5 µs an element and 160 µs a kept one, a snapshot about 25 µs an element (/many, this machine).
 */
export const WALK_FROM_ELEMENTS = 8_000;

const WALK = `(${viewWalk.toString()})(${JSON.stringify(SNAPSHOT_STYLES)}, ${TEXT_BUDGET})`;

/**
 * The part of the page the viewport shows, read by one script in the page (view-walk.ts), in the shape of a
 * DOM snapshot of one document: the same index reads it. On a page of 50 000 elements Chromium takes over a
 * second to write a snapshot of the whole document, most of it out of view; this reads it in a fifth of that.
 * Null when the viewport shows a frame (their documents come with a DOM snapshot) or the walk failed.
 *
 * @param contextId the guard's isolated world (PageDriver.isolatedWorld), known before the call, so the walk
 * is sent at once: a request that follows it is answered after it.
 */
export async function readViewRecord(
  driver: PageDriver,
  contextId: number,
  cssContentWidth: number,
  budgetMs: number,
): Promise<Snapshot | null> {
  const r = await driver.send(
    'Runtime.evaluate',
    {
      expression: WALK,
      contextId,
      // Deep serialization hands back each kept element's backendNodeId in the same call.
      serializationOptions: {
        serialization: 'deep',
        maxDepth: 2,
        additionalParameters: { maxNodeDepth: 0, includeShadowTree: 'none' },
      },
    },
    budgetMs,
  );
  // A page the walk cannot read (an element unlike any it knows) is read by a snapshot instead.
  if (r.exceptionDetails) return null;
  const v = r.result.deepSerializedValue;
  if (v?.type !== 'object') return null;
  const parts = new Map(v.value as Array<[string, { type: string; value: unknown }]>);
  const json = parts.get('json')?.value;
  const els = (parts.get('els')?.value ?? []) as Array<{ value?: { backendNodeId?: number } }>;
  if (typeof json !== 'string') return null;
  const ids = els.map((e) => e.value?.backendNodeId ?? -1);
  return snapshotOf(JSON.parse(json) as WalkRecord, ids, cssContentWidth);
}

/** The walk's record as DOMSnapshot.captureSnapshot would have answered it for this one document. */
export function snapshotOf(w: WalkRecord, handedIds: number[], cssContentWidth: number): Snapshot {
  const backend = new Array<number>(w.parent.length).fill(-1);
  w.handed.forEach((ni, k) => {
    backend[ni] = handedIds[k] ?? -1;
  });
  const strings = w.strings;
  const open = strings.push('open') - 1;
  const layout: Protocol.DOMSnapshot.LayoutTreeSnapshot = {
    nodeIndex: [],
    styles: [],
    bounds: [],
    text: [],
    stackingContexts: { index: [] },
    paintOrders: [],
  };
  for (const row of w.layout) {
    const [ni = -1, x = 0, y = 0, width = 0, height = 0, paint = 0, ...styles] = row;
    layout.nodeIndex.push(ni);
    layout.bounds.push([x, y, width, height]);
    layout.styles.push(styles);
    layout.text.push(-1);
    layout.paintOrders?.push(paint);
  }
  const doc: Protocol.DOMSnapshot.DocumentSnapshot = {
    documentURL: -1,
    title: -1,
    baseURL: -1,
    contentLanguage: -1,
    encodingName: -1,
    publicId: -1,
    systemId: -1,
    frameId: -1,
    nodes: {
      parentIndex: w.parent,
      nodeType: w.type,
      nodeName: w.name,
      nodeValue: w.value,
      backendNodeId: backend,
      attributes: w.attrs,
      shadowRootType: { index: w.shadow, value: w.shadow.map(() => open) },
      inputValue: { index: w.inputValue.map((p) => p[0]), value: w.inputValue.map((p) => p[1]) },
      inputChecked: { index: w.checked },
      optionSelected: { index: w.selected },
    },
    layout,
    textBoxes: { layoutIndex: [], bounds: [], start: [], length: [] },
    scrollOffsetX: w.scroll[0],
    scrollOffsetY: w.scroll[1],
    // The index reads device px per CSS px from the content width, as it does a snapshot's.
    contentWidth: cssContentWidth * w.dpr,
  };
  return { documents: [doc], strings };
}
