import type { Capture } from '../../browser/snapshot/capture.js';
import type { SnapshotIndex } from '../../browser/snapshot/snapshot.js';
import type { FrameGeometry } from '../../geometry/index.js';
import { ActionError } from '../check/errors.js';
import type { Mark } from '../verbs/marks.js';

/** What the screenshot's answer says of a frame: the image went to the agent, and no check reads its pixels. */
export interface FrameInfo {
  id: string;
  /** The tab it shows (TabSet id). */
  tab: number;
  capture: Omit<Capture, 'base64' | 'snapshot'>;
  geometry: FrameGeometry;
  marks?: Mark[];
  /** A zoom frame: the frame it zoomed into. */
  zoomOf?: string;
}

/** A frame an action can check against: its DOM snapshot has been read. */
export interface FrameRecord extends FrameInfo {
  capture: FrameInfo['capture'] & { snapshot: SnapshotIndex };
  /**
   * The image as captured (base64 PNG, without marks drawn on it): the pixel guard crops what the model saw
   * from it. Kept for the newest KEEP_IMAGES frames only; null for older ones.
   */
  image: string | null;
}

/** A kept frame; its snapshot may still be on its way (see Capture.snapshot). */
interface Entry {
  info: FrameInfo;
  ready: Promise<Omit<FrameRecord, 'image'>>;
  image: string | null;
}

/** How many of the newest frames keep their image (~0.1–1 MB each) for the pixel guard. */
const KEEP_IMAGES = 4;

/** Frames of one session: f1, f2, … Old ones are dropped so a long session does not hoard snapshots. */
export class FrameStore {
  private readonly frames = new Map<string, Entry>();
  private next = 1;
  /** Why frames before the current ones are gone, for a refusal that says what happened. */
  private voidReason = 'it is older than the last 30 frames this session keeps';
  /** Frames dropped for a reason of their own (their tab closed). */
  private readonly voided = new Map<string, string>();

  constructor(private readonly keep = 30) {}

  add(capture: Capture, opts: { tab: number; marks?: Mark[]; zoomOf?: string }): FrameInfo {
    const id = `f${this.next++}`;
    const geometry: FrameGeometry = {
      image: capture.image,
      css: capture.css,
      scroll: capture.scroll,
      devicePixelRatio: capture.devicePixelRatio,
    };
    if (capture.origin) geometry.origin = capture.origin;
    const { base64: _sent, snapshot, ...kept } = capture;
    const info: FrameInfo = { id, tab: opts.tab, capture: kept, geometry };
    if (opts.marks) info.marks = opts.marks;
    if (opts.zoomOf) info.zoomOf = opts.zoomOf;
    const ready = snapshot.then((s) => ({ ...info, capture: { ...kept, snapshot: s } }));
    // A frame nobody acts on may fail quietly; one that is used says why (get).
    ready.catch(() => {});
    // The capture's own string: decoded only when a pixel target needs it, not on every screenshot.
    this.frames.set(id, { info, ready, image: capture.base64 });
    let withImage = 0;
    for (const e of [...this.frames.values()].reverse())
      if (e.image && ++withImage > KEEP_IMAGES) e.image = null;
    for (const old of this.frames.keys()) {
      if (this.frames.size <= this.keep) break;
      this.frames.delete(old);
    }
    return info;
  }

  /**
   * The frame, once its snapshot is read, if it still describes the page in the tab then (`now`, read after
   * the wait: the page may have moved on meanwhile); otherwise a refusal that says what to do.
   */
  async get(id: string, now: () => { url: string; loaderId: string; tab: number }): Promise<FrameRecord> {
    const entry = this.frames.get(id);
    const n = /^f(\d+)$/.exec(id);
    if (!entry && n && Number(n[1]) < this.next) {
      throw new ActionError(
        'FRAME_VOID',
        `Frame ${id} can no longer be used: ${this.voided.get(id) ?? this.voidReason}.`,
        'Take a new screenshot (browser_screenshot) and read the point off that one.',
        'frame',
      );
    }
    if (!entry) {
      const known = [...this.frames.keys()];
      throw new ActionError(
        'UNKNOWN_FRAME',
        `Unknown frame "${id}"${known.length ? ` (this session has ${known.join(', ')})` : ' (no screenshot taken yet)'}.`,
        'Call browser_screenshot and pass the id it returns as `frame`.',
        'frame',
      );
    }
    const rec = entry.info;
    const ready = await entry.ready.catch((err: Error) => err);
    const page = now();
    if (rec.tab !== page.tab) {
      throw new ActionError(
        'FRAME_OTHER_TAB',
        `Frame ${id} shows another tab (${rec.capture.url}); trueclick is acting on the tab that shows ${page.url}.`,
        'Take a screenshot of this tab, or switch back with browser_tabs {action: "select", index}.',
        'frame',
      );
    }
    if (rec.capture.loaderId !== page.loaderId) {
      throw new ActionError(
        'FRAME_OUTDATED',
        `Frame ${id} shows ${rec.capture.url} from before a navigation; the tab now shows ${page.url}.`,
        'Take a new screenshot (browser_screenshot) and read the point off that one.',
        'frame',
      );
    }
    if (ready instanceof Error) {
      throw new ActionError(
        'FRAME_VOID',
        `Frame ${id} can no longer be used: trueclick could not read the page behind it (${ready.message}).`,
        'Take a new screenshot (browser_screenshot) and read the point off that one.',
        'frame',
      );
    }
    return { ...ready, image: entry.image };
  }

  /** Voids the frames of one tab (it closed). */
  clearTab(tab: number, reason: string): void {
    for (const [id, { info }] of this.frames) {
      if (info.tab !== tab) continue;
      this.frames.delete(id);
      this.voided.set(id, reason);
    }
  }

  /** Voids every frame (e.g. the browser was relaunched); their ids are never reused. */
  clear(reason: string): void {
    this.frames.clear();
    this.voidReason = reason;
  }
}
