import type { Capture } from '../browser/capture.js';
import type { FrameGeometry } from '../geometry/index.js';
import { ActionError } from './errors.js';
import type { Mark } from './marks.js';

/** What a frame keeps of its capture: the image went to the agent, and no check reads its pixels. */
export type KeptCapture = Omit<Capture, 'base64'>;

export interface FrameRecord {
  id: string;
  /** The tab it shows (TabSet id). */
  tab: number;
  capture: KeptCapture;
  geometry: FrameGeometry;
  marks?: Mark[];
  /** A zoom frame: the frame it zoomed into. */
  zoomOf?: string;
}

/** Frames of one session: f1, f2, … Old ones are dropped so a long session does not hoard snapshots. */
export class FrameStore {
  private readonly frames = new Map<string, FrameRecord>();
  private next = 1;
  /** Why frames before the current ones are gone, for a refusal that says what happened. */
  private voidReason = 'it is older than the last 30 frames this session keeps';
  /** Frames dropped for a reason of their own (their tab closed). */
  private readonly voided = new Map<string, string>();

  constructor(private readonly keep = 30) {}

  add(capture: Capture, opts: { tab: number; marks?: Mark[]; zoomOf?: string }): FrameRecord {
    const id = `f${this.next++}`;
    const geometry: FrameGeometry = {
      image: capture.image,
      css: capture.css,
      scroll: capture.scroll,
      devicePixelRatio: capture.devicePixelRatio,
    };
    if (capture.origin) geometry.origin = capture.origin;
    const { base64: _sent, ...kept } = capture;
    const rec: FrameRecord = { id, tab: opts.tab, capture: kept, geometry };
    if (opts.marks) rec.marks = opts.marks;
    if (opts.zoomOf) rec.zoomOf = opts.zoomOf;
    this.frames.set(id, rec);
    for (const old of this.frames.keys()) {
      if (this.frames.size <= this.keep) break;
      this.frames.delete(old);
    }
    return rec;
  }

  /** The frame, if it still describes the page in the tab; otherwise a refusal that says what to do. */
  get(id: string, page: { url: string; loaderId: string; tab: number }): FrameRecord {
    const rec = this.frames.get(id);
    const n = /^f(\d+)$/.exec(id);
    if (!rec && n && Number(n[1]) < this.next) {
      throw new ActionError(
        'FRAME_VOID',
        `Frame ${id} can no longer be used: ${this.voided.get(id) ?? this.voidReason}.`,
        'Take a new screenshot (browser_screenshot) and read the point off that one.',
        'frame',
      );
    }
    if (!rec) {
      const known = [...this.frames.keys()];
      throw new ActionError(
        'UNKNOWN_FRAME',
        `Unknown frame "${id}"${known.length ? ` (this session has ${known.join(', ')})` : ' (no screenshot taken yet)'}.`,
        'Call browser_screenshot and pass the id it returns as `frame`.',
        'frame',
      );
    }
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
    return rec;
  }

  /** Voids the frames of one tab (it closed). */
  clearTab(tab: number, reason: string): void {
    for (const [id, rec] of this.frames) {
      if (rec.tab !== tab) continue;
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
