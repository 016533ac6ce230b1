// CSS truth -> what a model family would answer, in its convention and on its resized grid. The property tests
// and the grounding matrix use it as an oracle; resolveRequest(toConvention(p)) must give p back.

import type { Convention } from './conventions.js';
import { GeometryError, show } from './errors.js';
import { type FrameGeometry, validateFrame } from './frame.js';
import { inverse, type XY } from './mapping.js';

function checkedFrame(frame: FrameGeometry | undefined): FrameGeometry | undefined {
  return frame === undefined ? undefined : validateFrame(frame);
}

function checkPoint(p: XY, field: string): void {
  if (typeof p?.x !== 'number' || typeof p.y !== 'number' || !Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new GeometryError(
      'NOT_FINITE',
      `${field} ${show(p?.x)}, ${show(p?.y)} is not a finite point.`,
      'Pass {x, y} in CSS viewport px.',
      field,
    );
  }
}

/**
 * A CSS viewport point as `convention` writes it: [x, y], or [y, x] for axis_order 'yx'. Values are floats
 * except for quantized conventions (Florence-2 bins), where they are the bin the point falls in.
 */
export function toConvention(css: XY, convention: Convention, frame?: FrameGeometry): number[] {
  checkPoint(css, 'css');
  const p = inverse(css, convention, checkedFrame(frame));
  return convention.axis_order === 'yx' ? [p.y, p.x] : [p.x, p.y];
}

/** A box by its edges, in CSS viewport px. */
export interface CssBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A CSS viewport box as `convention` writes it, in its box_format and axis_order. */
export function toConventionBox(box: CssBox, convention: Convention, frame?: FrameGeometry): number[] {
  const f = checkedFrame(frame);
  checkPoint({ x: box.left, y: box.top }, 'box.left/top');
  checkPoint({ x: box.right, y: box.bottom }, 'box.right/bottom');
  const a = inverse({ x: box.left, y: box.top }, convention, f);
  const b = inverse({ x: box.right, y: box.bottom }, convention, f);
  // A bottom-left origin turns top into the larger y, so order the corners again.
  const x1 = Math.min(a.x, b.x);
  const x2 = Math.max(a.x, b.x);
  const y1 = Math.min(a.y, b.y);
  const y2 = Math.max(a.y, b.y);
  let xFirst: number[];
  if (convention.box_format === 'xyxy') xFirst = [x1, y1, x2, y2];
  else if (convention.box_format === 'xywh') xFirst = [x1, y1, x2 - x1, y2 - y1];
  else xFirst = [(x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1];
  if (convention.axis_order === 'xy') return xFirst;
  const [p = 0, q = 0, r = 0, s = 0] = xFirst;
  return [q, p, s, r];
}
