import type { Protocol } from 'devtools-protocol';
import { placed, type RemoteDriver } from '../identity/remote-frames.js';
import { BrowserError } from '../plumbing/errors.js';
import type { PageDriver } from '../plumbing/page-driver.js';
import { type FrameSnapshot, SNAPSHOT_STYLES, SnapshotIndex } from './snapshot.js';
import { measureKept } from './snapshot-measure.js';
import { readViewRecord } from './view-record.js';

type Snapshot = Protocol.DOMSnapshot.CaptureSnapshotResponse;
type Box = { x: number; y: number; width: number; height: number };

/** How long a snapshot may take once its image is answered (a 50 000-element page takes 2–4 s). */
const SNAPSHOT_BUDGET_MS = 30_000;

const SNAPSHOT_PARAMS = {
  computedStyles: [...SNAPSHOT_STYLES],
  includePaintOrder: true,
  // Offset and client rects of every box cost Chromium a second on a 50 000-element page; the few a
  // check needs are measured live instead (snapshot-measure.ts).
  includeDOMRects: false,
};

/** How long measuring the kept scroll boxes and transformed elements may take. */
const MEASURE_BUDGET_MS = 3_000;

/** Two scroll offsets (CSS px) that show the same part of the page. */
export const sameScroll = (a: { x: number; y: number }, b: { x: number; y: number }) =>
  Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;

export interface SnapshotRequest {
  /** The page's and its cross-site iframes' documents as one index; see Capture.snapshot. */
  index: Promise<SnapshotIndex>;
}

/**
 * Asks the page and each of its cross-site iframes (`remote`, sessions of their own) for a DOM snapshot,
 * and returns once every request is on its way to its page, not when the snapshots are written. Each
 * session's browser end answers Target.getTargetInfo itself, after it passed the snapshot request on: what
 * the agent does once it has the image reaches every document behind its snapshot.
 *
 * @param view the viewport the image shows, page CSS px; its scroll must still hold in the snapshot.
 * @param walk read the page's document by a walk of its viewport (view-record.ts), not a DOM snapshot.
 */
export async function requestSnapshot(
  driver: PageDriver,
  remote: RemoteDriver[],
  view: Box,
  cssContentWidth: number,
  ackBudgetMs: number,
  walk = false,
): Promise<SnapshotRequest> {
  const ask = (d: PageDriver) => {
    const p = d.send('DOMSnapshot.captureSnapshot', SNAPSHOT_PARAMS, SNAPSHOT_BUDGET_MS);
    p.catch(() => {});
    return p;
  };
  // A walk that meets a frame in view gives way to a snapshot, which reads the frame's document too. The
  // world is known first, so the walk is sent before the acknowledgements below, as a snapshot is.
  const world = walk ? await driver.isolatedWorld() : undefined;
  const page =
    world !== undefined
      ? readViewRecord(driver, world, cssContentWidth, SNAPSHOT_BUDGET_MS).then((s) => s ?? ask(driver))
      : ask(driver);
  page.catch(() => {});
  // A busy iframe must not cost the whole frame: without its document, its points are the iframe.
  const frames = remote.map((r) => ({ ...r, snapshot: ask(r.driver).catch(() => null) }));
  await Promise.all(
    [driver, ...remote.map((r) => r.driver)].map((d) =>
      d.send('Target.getTargetInfo', {}, ackBudgetMs).catch(() => {}),
    ),
  );
  const index = indexOf(driver, page, frames, view, cssContentWidth);
  // Whoever reads the frame awaits it; one that nobody reads must not end the process when it fails.
  index.catch(() => {});
  return { index };
}

async function indexOf(
  driver: PageDriver,
  page: Promise<Snapshot>,
  frames: Array<RemoteDriver & { snapshot: Promise<Snapshot | null> }>,
  view: Box,
  cssContentWidth: number,
): Promise<SnapshotIndex> {
  const [snap, remote] = await Promise.all([
    page,
    Promise.all(
      frames.map(async (f, id) => {
        const snapshot = await f.snapshot;
        // Which <iframe> shows it is asked of the session that holds it, once its own snapshot is written.
        const at = snapshot ? await placed(f.holder, f.driver) : null;
        const holder = f.holder === driver ? null : frames.findIndex((h) => h.driver === f.holder);
        return at && snapshot ? { ownerBackendNodeId: at.ownerBackendNodeId, snapshot, id, holder } : null;
      }),
    ),
  ]);
  const doc = snap.documents[0];
  const devicePerCss = doc?.contentWidth && cssContentWidth ? doc.contentWidth / cssContentWidth : 1;
  const remoteSnaps = remote.map((f) => f?.snapshot);
  const frameSnaps: FrameSnapshot[] = remote.filter((f) => f !== null).map((f) => ({ ...f, devicePerCss }));
  const index = new SnapshotIndex(snap, devicePerCss, frameSnaps, view);
  if (!sameScroll(view, index.scroll)) {
    throw new BrowserError(
      'CAPTURE_FAILED',
      `The page scrolled from (${view.x}, ${view.y}) to (${index.scroll.x}, ${index.scroll.y}) CSS px right after the screenshot, so trueclick could not read what it showed`,
      'Take a new screenshot once the page holds still.',
    );
  }
  const sessionOf = (frameId: string) => {
    // A frame of a cross-site frame's process (itself, or one nested in it) is asked through its session.
    const remote = frames.find(
      (f, i) =>
        f.driver.mainFrameId === frameId ||
        remoteSnaps[i]?.documents.some((d) => remoteSnaps[i]?.strings[d.frameId] === frameId),
    )?.driver;
    if (remote) return { driver: remote, frameId };
    return { driver, frameId: frameId || driver.mainFrameId };
  };
  await index.placeTransformed(async (frameId, backendNodeId) => {
    const { model } = await sessionOf(frameId).driver.send('DOM.getBoxModel', { backendNodeId });
    return model;
  });
  await measureKept(index, sessionOf, MEASURE_BUDGET_MS);
  return index;
}
