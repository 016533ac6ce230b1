// Request -> one CSS viewport point, or a GeometryError that tells the agent what to send instead. Every check
// here stands between a doubtful number and a click, so nothing is clamped or guessed.

import { type Convention, RELATIVE_EXTENT } from './conventions.js';
import { GeometryError, show } from './errors.js';
import { type FrameGeometry, frameOrigin, validateFrame } from './frame.js';
import { forward, imageExtent, requireFrame, type XY } from './mapping.js';
import { parseModelOutput } from './parse.js';
import type { Grammar, PresetName } from './presets.js';
import { asRecord, conventionFor, given, type TargetRequest } from './request.js';

/** Where a click target lands: its CSS viewport px, with how the numbers were read to get there. */
export interface ResolvedPoint {
  /** CSS viewport px, floats (rounding only at dispatch). */
  css: XY;
  /** The same point in frame image px, when a frame was given. */
  image?: XY;
  /** What was applied after preset + defaults (for reporting to the agent). */
  convention: Convention;
  kind: 'point' | 'box';
  /** The numbers as given or parsed, before any conversion. */
  values: number[];
  /** Which output form model_output was read as. */
  grammar?: Grammar;
  /** For a box: its corners in CSS viewport px (left, top, right, bottom). */
  cssBox?: { x1: number; y1: number; x2: number; y2: number };
}

interface Target {
  kind: 'point' | 'box';
  values: number[];
  field: string;
  grammar?: Grammar;
  namedAxes?: boolean;
}

function readNumber(v: unknown, field: string): number {
  if (typeof v !== 'number') {
    throw new GeometryError(
      'NOT_A_NUMBER',
      `${field} is ${show(v)}, not a number.`,
      `Pass ${field} as a number.`,
      field,
    );
  }
  return v;
}

function readTarget(r: Record<string, unknown>): Target {
  const hasXY = given(r.x) || given(r.y);
  const sources = [hasXY && 'x/y', given(r.box) && 'box', given(r.model_output) && 'model_output'].filter(
    (s): s is string => typeof s === 'string',
  );
  if (sources.length > 1) {
    throw new GeometryError(
      'TWO_TARGETS',
      `The request has ${sources.length} targets at once (${sources.join(' and ')}).`,
      'Pass exactly one target: x and y, or box, or model_output (with model).',
      sources[1],
    );
  }
  if (sources.length === 0) {
    throw new GeometryError(
      'NO_TARGET',
      'The request has no target.',
      "Pass x and y (a point), box (4 numbers), or model_output with model (the model's raw answer).",
    );
  }
  if (hasXY) {
    if (!given(r.x) || !given(r.y)) {
      const missing = given(r.x) ? 'y' : 'x';
      throw new GeometryError(
        'INCOMPLETE_POINT',
        `The point has no ${missing}.`,
        `Pass both x and y (or a box).`,
        missing,
      );
    }
    return { kind: 'point', values: [readNumber(r.x, 'x'), readNumber(r.y, 'y')], field: 'x/y' };
  }
  if (given(r.box)) {
    const box = r.box;
    if (!Array.isArray(box) || box.length !== 4) {
      const length = Array.isArray(box) ? `${box.length} numbers` : show(box);
      throw new GeometryError(
        'BOX_LENGTH',
        `box is ${length}; a box needs exactly 4.`,
        Array.isArray(box) && box.length === 2
          ? 'For a point pass x and y instead of box.'
          : 'Pass box as 4 numbers in box_format (xyxy: [left, top, right, bottom]).',
        'box',
      );
    }
    return { kind: 'box', values: box.map((v, i) => readNumber(v, `box[${i}]`)), field: 'box' };
  }
  if (!given(r.model)) {
    throw new GeometryError(
      'MODEL_REQUIRED',
      'model_output was given without model, so its numbers have no known meaning.',
      "Pass model (e.g. 'gemini', 'qwen2.5-vl', 'claude') with model_output, or pass x/y or box with units.",
      'model',
    );
  }
  const parsed = parseModelOutput(r.model as PresetName, r.model_output as string);
  return {
    kind: parsed.kind,
    values: parsed.values,
    field: 'model_output',
    grammar: parsed.grammar,
    namedAxes: parsed.axis_order === 'xy',
  };
}

function checkValues(values: number[], convention: Convention, field: string): void {
  for (const v of values) {
    if (!Number.isFinite(v)) {
      throw new GeometryError(
        'NOT_FINITE',
        `${field} contains ${show(v)}.`,
        'Pass finite numbers; if the model produced this, ask it again for the target.',
        field,
      );
    }
    // Screen coordinates can be negative on a monitor left of or above the primary one.
    if (v < 0 && convention.space !== 'screen') {
      throw new GeometryError(
        'NEGATIVE',
        `${field} contains a negative value (${v}).`,
        `Pass coordinates >= 0 measured from the ${convention.origin} corner; if the element is off-screen, scroll first.`,
        field,
      );
    }
  }
  if (convention.units === 'px' && values.every((v) => v <= 1)) {
    throw new GeometryError(
      'LOOKS_NORMALIZED',
      `${field} ${show(values)} is all <= 1, which looks like fractions, not pixels.`,
      "Pass units 'normalized' if these are 0..1 fractions of the image (or units 'css' if you really mean a point at most 1 px from the corner).",
      'units',
    );
  }
}

function swapPairs(v: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < v.length; i += 2) out.push(v[i + 1] ?? 0, v[i] ?? 0);
  return out;
}

/** A box in x-first order -> its corners [x1, y1, x2, y2] and centre, after shape checks. */
function boxCorners(v: number[], format: Convention['box_format'], field: string): number[] {
  const [a = 0, b = 0, c = 0, d = 0] = v;
  if (format === 'xyxy') {
    if (c < a || d < b) {
      throw new GeometryError(
        'BOX_INVERTED',
        `${field} ${show(v)} has ${c < a ? 'x2 < x1' : 'y2 < y1'} for box_format 'xyxy'.`,
        "Pass [left, top, right, bottom]; if the numbers are [x, y, width, height] pass box_format 'xywh', if y comes first pass axis_order 'yx'.",
        field,
      );
    }
    return [a, b, c, d];
  }
  if (c <= 0 || d <= 0) {
    throw new GeometryError(
      'BOX_EMPTY',
      `${field} ${show(v)} has a ${c <= 0 ? 'width' : 'height'} of ${c <= 0 ? c : d} for box_format '${format}'.`,
      `Pass a positive width and height; if the numbers are corners [x1, y1, x2, y2] pass box_format 'xyxy'.`,
      field,
    );
  }
  if (format === 'xywh') return [a, b, a + c, b + d];
  return [a - c / 2, b - d / 2, a + c / 2, b + d / 2];
}

function suggestUnits(max: number): string {
  if (max <= 1) return "units 'normalized'";
  if (max <= 100) return "units 'percent' or 'permille'";
  if (max <= 1000) return "units 'permille' or 'px'";
  return "units 'px' (with shown_width if the model saw the image at another size)";
}

function checkRange(
  points: XY[],
  convention: Convention,
  frame: FrameGeometry | undefined,
  field: string,
): void {
  const describe = (p: XY) => `(${p.x}, ${p.y})`;
  if (convention.units === 'css') {
    if (frame === undefined) return;
    // Checked in viewport space: that is where the click must land.
    const o = frameOrigin(frame);
    const cssPoints = points
      .map((p) => forward(p, convention, frame).css)
      .map((p) => ({ x: p.x - o.x, y: p.y - o.y }));
    const w = frame.css.width;
    const h = frame.css.height;
    const tol = 1e-9 * Math.max(w, h, 1);
    const out = cssPoints.findIndex((p) => p.x < -tol || p.y < -tol || p.x > w + tol || p.y > h + tol);
    const bad = cssPoints[out];
    if (bad !== undefined) {
      throw new GeometryError(
        'OUT_OF_RANGE',
        `${field} puts the point at viewport ${describe(bad)}, outside the ${w} x ${h} CSS px viewport of the frame.`,
        convention.space === 'viewport'
          ? "Pass CSS px inside the viewport; for page coordinates pass space 'page', for pixels of the screenshot units 'px'."
          : 'Scroll so the target is in the viewport and take a new screenshot.',
        field,
      );
    }
    return;
  }
  const f = requireFrame(frame, convention);
  const extent = imageExtent(convention, f);
  const tol = 1e-9 * Math.max(extent.x, extent.y, 1);
  const bad = points.find((p) => p.x < -tol || p.y < -tol || p.x > extent.x + tol || p.y > extent.y + tol);
  if (bad === undefined) return;
  const max = Math.max(...points.flatMap((p) => [p.x, p.y]));
  if (convention.units === 'px') {
    const asSent = extent.x === f.image.width && extent.y === f.image.height;
    throw new GeometryError(
      'OUT_OF_RANGE',
      `${field} point ${describe(bad)} is outside the ${extent.x} x ${extent.y} px image ${asSent ? 'of the frame' : 'the model saw'}.`,
      `Pass pixels of the image as the model saw it (0..${extent.x} x 0..${extent.y}); if it was shown at another width pass shown_width; if these are other units pass ${suggestUnits(max)}.`,
      field,
    );
  }
  const range = `0..${extent.x}`;
  throw new GeometryError(
    'OUT_OF_RANGE',
    `${field} point ${describe(bad)} is outside the ${convention.units} range ${range}.`,
    `Pass values in ${range}${max > RELATIVE_EXTENT.normalized ? `, or ${suggestUnits(max)} if that is what they are` : ''}.`,
    field,
  );
}

/** checkRange lets float noise through (1e-9 of the viewport); the point handed on must still be inside it. */
function intoViewport(p: XY, frame: FrameGeometry): XY {
  const o = frameOrigin(frame);
  const clamp = (v: number, lo: number, size: number) => Math.min(Math.max(v, lo), lo + size);
  return { x: clamp(p.x, o.x, frame.css.width), y: clamp(p.y, o.y, frame.css.height) };
}

/** Resolves one click target to a CSS viewport point. Throws GeometryError only. */
export function resolveRequest(req: TargetRequest, frame?: FrameGeometry): ResolvedPoint {
  const r = asRecord(req);
  const f = frame === undefined || frame === null ? undefined : validateFrame(frame);
  const convention = conventionFor(req, f);
  const target = readTarget(r);
  if (target.namedAxes) convention.axis_order = 'xy';
  if (convention.units !== 'css') requireFrame(f, convention);
  checkValues(target.values, convention, target.field);
  const xFirst = convention.axis_order === 'yx' ? swapPairs(target.values) : target.values;

  let centre: XY;
  let corners: XY[];
  if (target.kind === 'box') {
    const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = boxCorners(xFirst, convention.box_format, target.field);
    corners = [
      { x: x1, y: y1 },
      { x: x2, y: y2 },
    ];
    centre = { x: (x1 + x2) / 2, y: (y1 + y2) / 2 };
  } else {
    centre = { x: xFirst[0] ?? 0, y: xFirst[1] ?? 0 };
    corners = [centre];
  }
  checkRange(target.kind === 'box' ? [...corners, centre] : corners, convention, f, target.field);

  const mapped = forward(centre, convention, f);
  const css = f === undefined ? mapped.css : intoViewport(mapped.css, f);
  const out: ResolvedPoint = { css, convention, kind: target.kind, values: target.values };
  if (mapped.image !== undefined) out.image = mapped.image;
  const [a, b] = corners;
  if (target.kind === 'box' && a && b) {
    const p = forward(a, convention, f).css;
    const q = forward(b, convention, f).css;
    // A bottom-left origin flips y: the box's top is the smaller CSS y either way.
    out.cssBox = {
      x1: Math.min(p.x, q.x),
      y1: Math.min(p.y, q.y),
      x2: Math.max(p.x, q.x),
      y2: Math.max(p.y, q.y),
    };
  }
  if (target.grammar !== undefined) out.grammar = target.grammar;
  return out;
}
