import type { Hit } from '../browser/element-facts.js';
import type { Expect } from './expect.js';

export type Verdict =
  | 'OK'
  | 'STALE_TARGET'
  | 'COVERED'
  | 'MISSED_TARGET'
  | 'FRAME_MISMATCH'
  | 'LANDED_ELSEWHERE'
  /** The click was sent but where it landed could not be confirmed: look before retrying. */
  | 'UNVERIFIED';

export interface Point {
  x: number;
  y: number;
}

/** SPEC S4: the structuredContent of browser_click; refusals carry the same shape with isError. */
export interface ClickReport {
  verdict: Verdict;
  /** One sentence for the agent: what happened and what to do next. */
  message: string;
  /** CSS viewport px where the trusted events were sent; null = nothing was dispatched. */
  dispatched: Point | null;
  frame: string | null;
  /** The resolved point: CSS viewport px of the frame (before any scroll correction). */
  point: Point | null;
  /** The same point in the frame's image px. */
  imagePoint: Point | null;
  hitNow: Hit | null;
  hitAtCapture: Hit | null;
  expected?: Expect;
  landed?: Hit | null;
  mutationsSinceFrame: number | null;
  frameAgeMs: number | null;
  diagnosis?: {
    verdict: string;
    message: string;
    scale: Point;
    offset: Point;
    residual: Point;
    likelyCauses: string[];
    samples: number;
  };
  /** Where the described element was in the frame (MISSED_TARGET). */
  expectedAt?: { css: Point; image: Point; offsetCss: Point };
  /** Page clock, ms from the guard being armed (right after the hit-test) to the first trusted event. */
  exposureMs?: number;
  guard?: { firstInLine: boolean; blocked: number; delivered: number };
  scrollSinceFrame?: Point;
}

export const fmt = (n: number) => (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, '');
export const fmtPoint = (p: Point) => `(${fmt(p.x)}, ${fmt(p.y)})`;
