import type { PressEffect } from '../../browser/identity/guard-effect.js';
import type { GuardRecord } from '../../browser/identity/guard-end.js';
import type { LiveFacts, TickingParts } from '../../browser/identity/hit-test.js';
import type { Modifier, MouseButton } from '../../browser/plumbing/input.js';
import type { SnapshotElement } from '../../browser/snapshot/snapshot.js';
import type { PixelStage } from '../pixels/pixel-types.js';
import type { FrameRecord } from '../session/frames.js';
import type { ActionContext, ClickRequest, Resolved } from './target.js';
import type { ClickReport, Point } from './verdicts.js';

/**
 * What the checked point is for. Every intent goes through the same check (what the point held then, what it
 * holds now); they differ in the guard they arm and in what is sent after the check:
 * - click: the guard judges every press, release and click;
 * - drag: the guard judges the press at the start point, then stands down for the moves and the drop;
 * - hover, select, scroll, point: a look only (no press is sent that a guard could stop).
 */
export type Intent =
  | { kind: 'click'; button: MouseButton; count: number; modifiers: Modifier[] }
  | { kind: 'drag'; modifiers: Modifier[] }
  | { kind: 'hover'; modifiers: Modifier[] }
  | { kind: 'select' }
  | { kind: 'scroll' }
  | { kind: 'point' };

/** Intents that press a mouse button at the point: the mouse goes there first and a guard is armed. */
export const presses = (i: Intent) => i.kind === 'click' || i.kind === 'drag';

/**
 * One action on a checked point, as it moves through the stages of the pipeline (pipeline.ts): what the
 * agent asked, the frame it read the point from, what the point held then (`captured`), what it holds now
 * (`live`), and the report that becomes the verdict. Each stage reads and fills this record instead of
 * passing loose values on.
 */
export interface Attempt {
  ctx: ActionContext;
  req: ClickRequest;
  intent: Intent;
  resolved: Resolved;
  frame: FrameRecord | undefined;
  /** Mark actions name an element; point actions name whatever is topmost at the point. */
  byMark: boolean;
  /** The point in page (document) CSS px, as it was in the frame. */
  page: Point;
  /** The point in the viewport now: it follows the document when the page scrolled since the frame. */
  vp: Point;
  scrollNow: Point;
  viewport: { width: number; height: number };
  /** What the point held at capture (from the frame's snapshot). */
  captured: SnapshotElement | null;
  /**
   * What the point held when trueclick first looked, before its pointer moved there: judged against the
   * capture, so the page's answer to the pointer (a label that swaps on hover) is judged apart.
   */
  seen: LiveFacts | null;
  /**
   * What the point holds now, with the guard armed on it when the intent presses (the pointer is there
   * then); the same look as `seen` for an intent that does not press.
   */
  live: LiveFacts | null;
  /** Record parts of `seen` that tick in place (a running duration): the armed guard lets them tick too. */
  ticking?: TickingParts;
  /** The first look at the frame's point, taken with the viewport's metrics; used when nothing scrolled since. */
  firstSeen?: LiveFacts | null | undefined;
  /** The look through the point (blockedThrough), taken while trueclick's pointer travelled there. */
  peek?: Promise<LiveFacts | null>;
  /** The guard's record and the press's effect, asked for with the press (hit-test.ts disarmAfterRelease). */
  disarmed?: Promise<GuardRecord | null>;
  /** What the press did, read with the guard's disarm (undefined: not read then; null: nothing recorded). */
  effect?: PressEffect | null;
  /**
   * Where (page CSS px) the pixel guard cuts its band when that is not the captured element's own box: a
   * record whose DOM is alike its siblings' is told apart by pixels anywhere in it.
   */
  pixelArea?: { x: number; y: number; width: number; height: number };
  /**
   * `follow` moved the attempt to where the record is now: the capture's facts lost this many leading `a:`
   * parts (placeFree), and every look is compared without its own.
   */
  placeFree?: number;
  /** The pixel guard's band, when the point's element carries no identity of its own (pixels.ts). */
  pixelStage: PixelStage | null;
  report: ClickReport;
}
