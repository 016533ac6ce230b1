import type { LiveFacts } from '../browser/hit-test.js';
import type { SnapshotElement } from '../browser/snapshot.js';
import type { FrameRecord } from './frames.js';
import type { ActionContext, ClickRequest, Resolved } from './target.js';
import type { ClickReport, Point } from './verdicts.js';

/**
 * One click, as it moves through the stages of the pipeline (click.ts): what the agent asked, the frame
 * it read the point from, what the point held then (`captured`), what it holds now (`live`), and the report
 * that becomes the verdict. Each stage reads and fills this record instead of passing loose values on.
 */
export interface Attempt {
  ctx: ActionContext;
  req: ClickRequest;
  /** browser_point: stop before dispatch, never arm a guard that could block input. */
  dryRun: boolean;
  resolved: Resolved;
  frame: FrameRecord | undefined;
  /** Mark clicks name an element; point clicks name whatever is topmost at the point. */
  byMark: boolean;
  /** The point in page (document) CSS px, as it was in the frame. */
  page: Point;
  /** The point in the viewport now: it follows the document when the page scrolled since the frame. */
  vp: Point;
  scrollNow: Point;
  viewport: { width: number; height: number };
  /** What the point held at capture (from the frame's snapshot). */
  captured: SnapshotElement | null;
  /** What the point holds now (live hit-test), with the guard armed on it. */
  live: LiveFacts | null;
  report: ClickReport;
}
