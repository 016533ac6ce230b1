// What the pixel guard keeps of an attempt and reports: types only, so the attempt, its report and the guard
// can name them without importing each other.
import type { Box } from '../../image/draw.js';
import type { Grey } from '../../image/pixel-diff.js';

/** What the pixel guard compared, for the report (ClickReport.pixels). */
export interface PixelCheck {
  /** Why the point needed it: the element under it carries no identity of its own. */
  why: string;
  /** The band compared, CSS px of the viewport at capture. */
  band: Box;
  /** Share of the band's pixels that changed since the frame (0–1), caret blinks and antialiasing not counted. */
  changedShare?: number;
  /** OCR of the band in the frame, and now (read when the pixels changed or expect named text). */
  textThen?: string;
  textNow?: string;
  /** Whether text was read; `unavailable` says why not. */
  ocr: 'read' | 'not needed' | 'no text' | `unavailable: ${string}`;
  /**
   * When the band moves by itself (a playing video, an animation): the share of its pixels that changed within
   * MOTION_MS, and how alike its tones are to the frame's (0–1), which then decide instead of the pixels.
   */
  moving?: { share: number; tonesAlike: number };
  /** ms from re-reading the band to the first input event sent: the window no guard covers. */
  windowMs?: number;
  /** ms this attempt spent in the pixel guard (cutting, re-capturing, comparing, reading text). */
  costMs?: number;
}

/** The pixel side of one attempt, kept between its stages. */
export interface PixelStage {
  check: PixelCheck;
  /** The band in the frame's image px. */
  image: Box;
  /** What the model saw there, grey, and as a PNG for OCR. */
  seenGrey: Grey;
  seen: Buffer;
  thenText?: Promise<string>;
  /** When the band was read again (Date.now()). */
  readAt?: number;
  /** The band as read again before trueclick's pointer came, grey: what a press's drawing is told from. */
  before?: Grey;
  /** A record alike its siblings in the DOM: the band's colours in the frame, and its control's box there. */
  alike?: { colours: Grey[]; control: Box };
}
