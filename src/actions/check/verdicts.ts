import type { Difference, SetAside } from '../../browser/identity/compare-facts.js';
import type { Hit } from '../../browser/identity/element-facts.js';
import type { ErrorKind } from '../../geometry/index.js';
import type { PixelCheck } from '../pixels/pixel-types.js';
import type { Expect } from './expect.js';

/**
 * How a checked action ended (SPEC S4): 'OK' it acted on the element the frame showed; 'STALE_TARGET' the
 * page changed under the point, 'COVERED' something now lies on top, 'MISSED_TARGET' the point never held
 * what `expect` describes (nothing sent for these three); 'FRAME_MISMATCH' recent misses fit one
 * scale/offset, so the coordinates were read in the wrong frame; 'LANDED_ELSEWHERE' the event reached another
 * element; 'UNVERIFIED' it was sent but where it landed is not confirmed.
 */
export type Verdict =
  | 'OK'
  | 'STALE_TARGET'
  | 'COVERED'
  | 'MISSED_TARGET'
  | 'FRAME_MISMATCH'
  | 'LANDED_ELSEWHERE'
  /** The element under the point cannot act (disabled, inert, read-only for typing): nothing was pressed. */
  | 'DISABLED'
  /** The click was sent but where it landed could not be confirmed: look before retrying. */
  | 'UNVERIFIED'
  /** The press asked a person first (the approval gate) and they said no: nothing was pressed. */
  | 'DECLINED';

/** The verdict of a call that failed before or instead of acting, by what kind of failure it was. */
export const ERROR_VERDICTS = {
  bad_input: 'BAD_INPUT',
  blocked: 'BLOCKED',
  browser_gone: 'BROWSER_GONE',
  session_gone: 'SESSION_GONE',
  timeout: 'TIMEOUT',
  internal: 'INTERNAL_ERROR',
} as const satisfies Record<ErrorKind, string>;

/**
 * The verdict of a call that failed before or instead of acting, by the error's kind: 'BAD_INPUT', 'BLOCKED'
 * (answer a dialog or file chooser first), 'BROWSER_GONE', 'TIMEOUT' or 'INTERNAL_ERROR'.
 */
export type ErrorVerdict = (typeof ERROR_VERDICTS)[ErrorKind];

export interface Point {
  x: number;
  y: number;
}

/**
 * What an action that pressed did, named in one of four kinds, so an OK is never silent about a press that
 * did nothing: `navigated` (where to), `opened` (a dialog, tab, file chooser, or a menu or listbox that came),
 * `changed` (the control's own state, elements that came or went, text of its record), or `none`.
 */
export type Effect =
  | { kind: 'navigated'; url?: string }
  | { kind: 'opened'; what: string; name?: string }
  | { kind: 'changed'; what: string[] }
  /**
   * `pixels` where the point is a canvas or the like, whose DOM says nothing: the band under the point held
   * after the press (`same`), or was not read, and why (`unread`).
   */
  | { kind: 'none'; withinMs: number; pixels?: 'same' | 'unread'; unread?: string };

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
  /** What the press did: navigated, opened, changed or none (effect.ts). */
  effect?: Effect;
  /** DISABLED: why the element cannot act, what says so, and whether the frame already showed it so. */
  disabled?: { reason: string; by: { tag: string; text: string }; inFrame: boolean };
  /** Where the described element was in the frame (MISSED_TARGET). */
  expectedAt?: { css: Point; image: Point; offsetCss: Point };
  /** Page clock, ms from the guard being armed (right after the hit-test) to the first trusted event. */
  exposureMs?: number;
  /** ms the check watched a text that may tick, to see it tick, before judging; absent when it did not. */
  watchedMs?: number;
  guard?: { firstInLine: boolean; blocked: number; delivered: number };
  scrollSinceFrame?: Point;
  /**
   * Inside a cross-site iframe Chromium delivered the hover this far (CSS px) from the checked point;
   * the click was sent moved by it, and the guard confirmed where it arrived.
   */
  routingOffset?: Point;
  /** STALE_TARGET: the named differences between the fingerprint at capture and now. */
  changes?: Difference[];
  /** OK: what changed but was not counted (live content, the page's answer to trueclick's own hover). */
  setAside?: SetAside[];
  /** `follow`: the record the frame showed at the point had moved; the action went to it there (CSS px). */
  followed?: { from: Point; to: Point; record: string; why: string };
  /** `follow` was asked and the record was not followed: which record, and why not. */
  notFollowed?: { record: string | null; why: string };
  /** A point only pixels vouch for (a canvas): what the pixel guard compared, and the window it left open. */
  pixels?: PixelCheck;
  /** The press asked a person first (approval/gate.ts): their answer, its route and timing. */
  approval?: ApprovalRecord;
  /** The click navigated: where the page went. */
  navigation?: {
    url?: string;
    kind?: 'document' | 'same-document';
    /** The new document (or the same-document URL change) took effect before trueclick answered. */
    committed?: boolean;
    /** Chromium's reason, e.g. anchorClick, formSubmissionPost, scriptInitiated. */
    reason?: string;
    /** It was the iframe holding the element that navigated, not the page. */
    frame?: boolean;
  };
}

/** What the answer and the trace say of an approval. */
export interface ApprovalRecord {
  reason: string;
  route: string;
  approved: boolean;
  sentence: string;
  /** How long the person took, ms. */
  waitedMs: number;
  /** How old the frame was at the yes (or the no), ms. */
  frameAgeAtAnswerMs: number | null;
  /** From the yes to the press (the re-read in between), ms; set when the press is sent. */
  yesToPressMs?: number;
  /** Clock (ms since the epoch) of the yes. */
  answeredAt: number;
}

export const fmt = (n: number) => (Math.round(n * 10) / 10).toFixed(1).replace(/\.0$/, '');
export const fmtPoint = (p: Point) => `(${fmt(p.x)}, ${fmt(p.y)})`;
