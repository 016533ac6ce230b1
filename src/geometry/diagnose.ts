// Turns intended-vs-actual clicks into a verdict an agent can act on: a frame problem (one scale/offset/swap/
// flip explains every miss, so fix a convention field) or not (the model is guessing, so fix the prompt).

import { type AffineFit, fitAffine, fitSwapped, type Sample, validateSamples } from './affine.js';
import { explainOffset, explainScale } from './causes.js';

/**
 * What explains a set of misses: 'no-error' they land where meant; one frame error for all of them
 * ('uniform-scale', 'per-axis-scale', 'constant-offset', 'axes-swapped', 'vertical-flip', 'horizontal-flip'),
 * so fix a convention field; 'scattered' the model is guessing; 'insufficient' too few samples, or too close.
 */
export type DiagnosisVerdict =
  | 'no-error'
  | 'uniform-scale'
  | 'per-axis-scale'
  | 'constant-offset'
  | 'axes-swapped'
  | 'vertical-flip'
  | 'horizontal-flip'
  | 'scattered'
  | 'insufficient';

/** The verdict on a set of intended/actual clicks, the fits behind it (samples' px), and what to change. */
export interface Diagnosis {
  verdict: DiagnosisVerdict;
  /** Direct fit actual = scale * intended + offset per axis (scale 1, offset 0 with no samples at all). */
  fit: AffineFit;
  /** Crossed fit: actual.x from intended.y, actual.y from intended.x. */
  swappedFit?: AffineFit;
  likelyCauses: string[];
  message: string;
  samples: number;
  /** Residual (px) under which a fit counts as explaining the misses, per axis. */
  tolerance?: { x: number; y: number };
}

/** Fewest samples diagnose judges: with fewer, a scale and an offset per axis cannot be told from noise. */
export const MIN_SAMPLES = 3;
/** Below this spread (px, standard deviation) of intended points an axis' scale cannot be told from noise. */
export const MIN_SPREAD = 10;
/** A fit "explains" misses when what it leaves is a few px: rounding, a half-pixel, anti-aliasing. */
const MIN_TOLERANCE = 4;
const RELATIVE_TOLERANCE = 0.02;
const UNIT_SCALE_TOLERANCE = 0.01;

function std(v: number[]): number {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  return Math.sqrt(v.reduce((a, b) => a + (b - m) * (b - m), 0) / v.length);
}

function rms(v: number[]): number {
  return Math.sqrt(v.reduce((a, b) => a + b * b, 0) / v.length);
}

function f(v: number, digits = 3): string {
  return Number(v.toFixed(digits)).toString();
}

function describeFit(fit: AffineFit): string {
  return `x: actual = ${f(fit.x.scale, 4)} x intended ${fit.x.offset < 0 ? '-' : '+'} ${f(Math.abs(fit.x.offset), 1)} (residual ${f(fit.x.residual, 1)} px); y: actual = ${f(fit.y.scale, 4)} x intended ${fit.y.offset < 0 ? '-' : '+'} ${f(Math.abs(fit.y.offset), 1)} (residual ${f(fit.y.residual, 1)} px)`;
}

function classifyDirect(
  s: Sample[],
  fit: AffineFit,
  tol: { x: number; y: number },
): Pick<Diagnosis, 'verdict' | 'likelyCauses' | 'message'> {
  const errX = rms(s.map((p) => p.actual[0] - p.intended[0]));
  const errY = rms(s.map((p) => p.actual[1] - p.intended[1]));
  const sx = fit.x.scale;
  const sy = fit.y.scale;
  if (errX <= tol.x && errY <= tol.y) {
    return {
      verdict: 'no-error',
      likelyCauses: [],
      message: `Clicks land where intended (rms error ${f(errX, 1)} px in x, ${f(errY, 1)} px in y): the frame and convention are right.`,
    };
  }
  if (sy < 0) {
    return {
      verdict: 'vertical-flip',
      likelyCauses: [
        `y measured from the bottom (origin 'bottom-left'): the image is about ${f(fit.y.offset / -sy, 0)} px high in those units`,
      ],
      message: `y runs the wrong way (${describeFit(fit)}): pass origin 'bottom-left' for this model, or have it measure from the top.`,
    };
  }
  if (sx < 0) {
    return {
      verdict: 'horizontal-flip',
      likelyCauses: ['x measured from the right edge, or a mirrored image'],
      message: `x runs the wrong way (${describeFit(fit)}): the model measures x from the right or saw a mirrored image.`,
    };
  }
  const unitX = Math.abs(sx - 1) <= UNIT_SCALE_TOLERANCE;
  const unitY = Math.abs(sy - 1) <= UNIT_SCALE_TOLERANCE;
  if (unitX && unitY) {
    // With the scale ~1 the mean shift is the robust offset; the fitted one trades off against a tiny scale.
    const dx = s.reduce((a, p) => a + p.actual[0] - p.intended[0], 0) / s.length;
    const dy = s.reduce((a, p) => a + p.actual[1] - p.intended[1], 0) / s.length;
    return {
      verdict: 'constant-offset',
      likelyCauses: explainOffset(dx, dy, Math.max(tol.x, tol.y)),
      message: `Every click is shifted by (${f(dx, 1)}, ${f(dy, 1)}) px (${describeFit(fit)}): a frame problem, not the model. Check the coordinate space (viewport vs page vs screen) and the scroll at capture.`,
    };
  }
  const mean = (sx + sy) / 2;
  if (Math.abs(sx - sy) <= UNIT_SCALE_TOLERANCE * mean) {
    const causes = explainScale(mean);
    const offsetNote =
      Math.abs(fit.x.offset) > tol.x || Math.abs(fit.y.offset) > tol.y
        ? ` plus an offset of (${f(fit.x.offset, 1)}, ${f(fit.y.offset, 1)}) px`
        : '';
    return {
      verdict: 'uniform-scale',
      likelyCauses: causes.length > 0 ? causes : [`an unrecognised scale of ${f(mean, 4)}`],
      message: `Clicks are scaled by ${f(mean, 4)} on both axes${offsetNote} (${describeFit(fit)}): a frame problem, not the model. The numbers were read against the wrong image size: ${causes[0] ?? 'check units, shown_width and devicePixelRatio'}. Pass units 'px' with the frame (and shown_width if the model saw the image at another width), or the model's preset.`,
    };
  }
  const causes = [
    "the image was resized without keeping its aspect ratio (e.g. to 768x768 as Florence-2 does, or to a fixed 1024x768): use relative units or the model's preset",
    ...explainScale(sx, 2).map((c) => `x: ${c}`),
    ...explainScale(sy, 2).map((c) => `y: ${c}`),
  ];
  return {
    verdict: 'per-axis-scale',
    likelyCauses: causes,
    message: `x and y are scaled differently (${f(sx, 4)} vs ${f(sy, 4)}; ${describeFit(fit)}): the image the model saw was stretched relative to the viewport. Pass the size it saw (shown_width and shown_height) or the model's preset.`,
  };
}

/**
 * Says whether misses come from a misread frame (one scale, offset, axis swap or flip explains them all, so a
 * convention field is wrong) or from a guessing model. Samples are [x, y] px of one frame, spread over it.
 */
export function diagnose(samples: Sample[]): Diagnosis {
  const s = validateSamples(samples);
  const n = s.length;
  if (n === 0) {
    const none = { scale: 1, offset: 0, residual: 0 };
    return {
      verdict: 'insufficient',
      fit: { x: none, y: none },
      likelyCauses: [],
      message: 'No samples: pass at least 3 intended/actual pairs spread over the image.',
      samples: 0,
    };
  }
  const fit = fitAffine(s);
  const spreadX = std(s.map((p) => p.intended[0]));
  const spreadY = std(s.map((p) => p.intended[1]));
  if (n < MIN_SAMPLES || spreadX < MIN_SPREAD || spreadY < MIN_SPREAD) {
    return {
      verdict: 'insufficient',
      fit,
      likelyCauses: [],
      message:
        n < MIN_SAMPLES
          ? `Only ${n} sample${n === 1 ? '' : 's'}: a scale and an offset per axis need at least ${MIN_SAMPLES} points to be told from noise.`
          : `The intended points barely vary in ${spreadX < MIN_SPREAD ? 'x' : 'y'} (spread under ${MIN_SPREAD} px), so a scale cannot be fitted: use targets spread over the image.`,
      samples: n,
    };
  }
  const tol = {
    x: Math.max(MIN_TOLERANCE, RELATIVE_TOLERANCE * spreadX),
    y: Math.max(MIN_TOLERANCE, RELATIVE_TOLERANCE * spreadY),
  };
  const swappedFit = fitSwapped(s);
  // The crossed fit regresses actual.x on intended.y, so its tolerance follows the y spread and vice versa.
  const directOK = fit.x.residual <= tol.x && fit.y.residual <= tol.y;
  const swappedOK = swappedFit.x.residual <= tol.y && swappedFit.y.residual <= tol.x;
  const directCost = fit.x.residual / tol.x + fit.y.residual / tol.y;
  const swappedCost = swappedFit.x.residual / tol.y + swappedFit.y.residual / tol.x;
  const base = { fit, swappedFit, samples: n, tolerance: tol };

  if (directOK && (!swappedOK || directCost <= swappedCost)) {
    return { ...base, ...classifyDirect(s, fit, tol) };
  }
  if (swappedOK) {
    return {
      ...base,
      verdict: 'axes-swapped',
      likelyCauses: [
        "the model answered y first (Gemini's [y, x] point and [ymin, xmin, ymax, xmax] box_2d) and it was read as x first",
      ],
      message: `x and y are swapped (actual.x follows intended.y: ${describeFit(swappedFit)}): pass axis_order 'yx', or model 'gemini' for Gemini answers.`,
    };
  }
  return {
    ...base,
    verdict: 'scattered',
    likelyCauses: ['the model is guessing: it misread the target, or the page changed under it'],
    message: `Not a frame problem: the model is guessing. No single scale, offset, axis swap or flip explains the misses (best residual ${f(Math.min(fit.x.residual, fit.y.residual), 1)} px, tolerance ${f(Math.max(tol.x, tol.y), 1)} px): ${describeFit(fit)}. Improve the prompt or use marks instead of coordinates.`,
  };
}
