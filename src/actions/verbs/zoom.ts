import { currentScroll } from '../../browser/plumbing/input.js';
import { type Capture, type CaptureOptions, captureFrame } from '../../browser/snapshot/capture.js';
import { GeometryError, resolveRequest, type TargetRequest } from '../../geometry/index.js';
import { ActionError } from '../check/errors.js';
import { type ActionContext, frameIn } from '../check/target.js';
import { fmt } from '../check/verdicts.js';

/** A region to look at closer: 4 numbers in the frame's convention (default xyxy image px of `frame`). */
export interface ZoomRequest extends Omit<TargetRequest, 'x' | 'y' | 'box' | 'model_output'> {
  frame?: string;
  region: number[];
  max_width?: number;
  marks?: boolean;
}

/** The smallest region side a zoom takes, CSS px: below it there is nothing left to read. */
const MIN_SIDE = 4;

/**
 * Captures a region of the viewport at a higher scale (Anthropic's zoom action): the region is read in the
 * frame's convention, follows the document if the page scrolled since, and must lie in the viewport now.
 * The capture is a frame of its own: its image pixels map to that region, so clicks can use them.
 */
export async function zoomRegion(
  ctx: ActionContext,
  req: ZoomRequest,
  co: CaptureOptions,
): Promise<{ capture: Capture; of?: string }> {
  const frame = req.frame ? await frameIn(ctx, req.frame) : undefined;
  const { frame: _f, region, max_width: _w, marks: _m, ...convention } = req;
  let box: { x1: number; y1: number; x2: number; y2: number };
  try {
    const r = resolveRequest({ ...convention, box: region }, frame?.geometry);
    box = r.cssBox as typeof box;
  } catch (err) {
    if (err instanceof GeometryError)
      throw new ActionError(err.code, err.problem, err.hint, err.field === 'box' ? 'region' : err.field);
    throw err;
  }
  const now = await currentScroll(ctx.driver);
  const shift = frame
    ? { x: now.x - frame.geometry.scroll.x, y: now.y - frame.geometry.scroll.y }
    : { x: 0, y: 0 };
  const area = { x: box.x1 - shift.x, y: box.y1 - shift.y, width: box.x2 - box.x1, height: box.y2 - box.y1 };
  if (area.width < MIN_SIDE || area.height < MIN_SIDE) {
    throw new ActionError(
      'REGION_TOO_SMALL',
      `The region is ${fmt(area.width)}×${fmt(area.height)} CSS px; a zoom needs at least ${MIN_SIDE}×${MIN_SIDE}.`,
      'Pass a larger region (left, top, right, bottom).',
      'region',
    );
  }
  const [w, h] = await ctx.driver.evaluate<[number, number]>('window.__trueclick.metrics()');
  if (area.x < -0.5 || area.y < -0.5 || area.x + area.width > w + 0.5 || area.y + area.height > h + 0.5) {
    throw new ActionError(
      'REGION_OUTSIDE',
      `The region (${fmt(area.x)}, ${fmt(area.y)}, ${fmt(area.width)}×${fmt(area.height)}) CSS px is not inside the ${fmt(w)}×${fmt(h)} viewport${shift.x || shift.y ? ` (the page scrolled by (${fmt(shift.x)}, ${fmt(shift.y)}) since frame ${frame?.id})` : ''}.`,
      'Pass a region inside the screenshot, or take a new screenshot first.',
      'region',
    );
  }
  const clipped = {
    x: Math.max(0, area.x),
    y: Math.max(0, area.y),
    width: Math.min(area.width, w - Math.max(0, area.x)),
    height: Math.min(area.height, h - Math.max(0, area.y)),
  };
  const capture = await captureFrame(ctx.driver, { ...co, region: clipped });
  // A zoom is read as a closer look at its frame: of another document, it would be of something else.
  if (frame && capture.loaderId !== frame.capture.loaderId)
    throw new ActionError(
      'FRAME_OUTDATED',
      `Frame ${frame.id} shows ${frame.capture.url} from before a navigation: the tab loaded a new document (${capture.url}) while trueclick zoomed into it.`,
      'Take a new screenshot (browser_screenshot) and zoom into that one.',
      'frame',
    );
  return frame ? { capture, of: frame.id } : { capture };
}
