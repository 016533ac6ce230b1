import { describeHit } from '../../browser/identity/element-facts.js';
import { nodeNow } from '../../browser/identity/frame-driver.js';
import type { Modifier, MouseButton } from '../../browser/plumbing/input.js';
import type { PageDriver } from '../../browser/plumbing/page-driver.js';
import { frameOrigin, GeometryError, resolveRequest, type TargetRequest } from '../../geometry/index.js';
import type { FrameRecord, FrameStore } from '../session/frames.js';
import { ActionError } from './errors.js';
import type { Expect } from './expect.js';
import type { MissLog } from './misses.js';
import type { Point } from './verdicts.js';

// From the agent's request to one CSS viewport point (and the mark's element, for mark clicks).

/**
 * A checked click as an agent asks for it: one target (x/y, box, model_output, or a `mark` id) with the
 * `frame` it was read off and its convention fields, plus what the element should be (`expect`) and how to
 * click (button, click_count, modifiers).
 */
export interface ClickRequest extends TargetRequest {
  frame?: string;
  mark?: number;
  expect?: Expect;
  /** Any change in the record since the frame refuses, live content included (a price the agent read). */
  strict?: boolean;
  button?: MouseButton;
  click_count?: number;
  modifiers?: Modifier[];
  /** When the record at the point moved since the frame, act on it where it is now (follow.ts). */
  follow?: boolean;
  /** The click is to type there: a read-only field refuses it (DISABLED) before anything is pressed. */
  typing?: boolean;
}

export interface ActionContext {
  driver: PageDriver;
  frames: FrameStore;
  misses: MissLog;
  /** The tab the driver drives: frames of other tabs are refused by name. */
  tab: number;
}

export interface Resolved {
  frame: FrameRecord | undefined;
  point: Point;
  imagePoint: Point | null;
  /** For mark clicks: the marked element (and its frame), looked up by identity at dispatch time. */
  mark?: { backendNodeId: number; frame?: string };
}

/** The fields that say where and in which convention (the geometry layer's request). */
export function targetFields(req: ClickRequest): TargetRequest {
  const {
    frame: _f,
    mark: _m,
    expect: _e,
    strict: _s,
    follow: _fo,
    button: _b,
    click_count: _c,
    modifiers: _k,
    ...target
  } = req;
  return target;
}

/** A frame by id, if it still shows what the context's tab shows (else the refusal that says why). */
export function frameIn(ctx: ActionContext, id: string): Promise<FrameRecord> {
  return ctx.frames.get(id, () => ({ url: ctx.driver.url, loaderId: ctx.driver.loaderId, tab: ctx.tab }));
}

export async function resolveTarget(ctx: ActionContext, req: ClickRequest): Promise<Resolved> {
  const frame = req.frame ? await frameIn(ctx, req.frame) : undefined;
  if (req.mark !== undefined) {
    if (req.x !== undefined || req.y !== undefined || req.box || req.model_output) {
      throw new ActionError(
        'TWO_TARGETS',
        'Pass exactly one target: `mark`, or x/y, or box, or model_output.',
        'Drop all but one.',
        'mark',
      );
    }
    if (!frame)
      throw new ActionError(
        'FRAME_REQUIRED',
        '`mark` needs the `frame` whose screenshot showed the marks.',
        'Pass frame with the mark.',
        'frame',
      );
    const mark = frame.marks?.find((m) => m.id === req.mark);
    if (!mark) {
      throw new ActionError(
        'UNKNOWN_MARK',
        `Frame ${frame.id} has no mark [${req.mark}]${frame.marks ? ` (it has 1–${frame.marks.length})` : ' (it was taken without marks)'}.`,
        'Take browser_screenshot with marks: true and pick a number from its list.',
        'mark',
      );
    }
    const now = await nodeNow(ctx.driver, mark.backendNodeId, mark.frame);
    if (!now?.connected || !now.rect || now.rect.width <= 0 || now.rect.height <= 0) {
      throw new ActionError(
        'MARK_GONE',
        `Mark [${mark.id}] (${describeHit(mark.hit)}) is no longer on the page.`,
        'Take a new screenshot with marks: true.',
        'mark',
      );
    }
    const point = { x: now.rect.x + now.rect.width / 2, y: now.rect.y + now.rect.height / 2 };
    const ref: NonNullable<Resolved['mark']> = { backendNodeId: mark.backendNodeId };
    if (mark.frame) ref.frame = mark.frame;
    return { frame, point, imagePoint: null, mark: ref };
  }
  try {
    const r = resolveRequest(targetFields(req), frame?.geometry);
    return { frame, point: r.css, imagePoint: r.image ?? null };
  } catch (err) {
    if (err instanceof GeometryError) throw new ActionError(err.code, err.problem, err.hint, err.field);
    throw err;
  }
}

export function centre(b: { x: number; y: number; width: number; height: number }): Point {
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

export function toImage(frame: FrameRecord, p: Point): Point {
  const { image, css } = frame.geometry;
  const o = frameOrigin(frame.geometry);
  return { x: ((p.x - o.x) * image.width) / css.width, y: ((p.y - o.y) * image.height) / css.height };
}
