// Least-squares fit of where clicks landed against where they were meant to land, per axis. A misread frame
// (units, downscale, devicePixelRatio, scroll) moves every click by one scale and offset; a moving world or a
// guessing model does not, and the residual says which.

import { GeometryError, show } from './errors.js';

/**
 * One click to learn from: where it was meant to land and where it did, as [x, y] in px of one frame (usually
 * CSS viewport px; both points must be in the same units).
 */
export interface Sample {
  intended: [number, number];
  actual: [number, number];
}

/**
 * The line through one axis' samples, actual = scale * intended + offset; offset and residual in their px.
 */
export interface AxisFit {
  /** actual = scale * intended + offset */
  scale: number;
  offset: number;
  /** Root mean square of what the fit leaves unexplained, px. */
  residual: number;
}

/** A fit per axis: x from the samples' x values, y from their y values. */
export interface AffineFit {
  x: AxisFit;
  y: AxisFit;
}

/** Checks untrusted samples; returns clean copies. */
export function validateSamples(samples: unknown): Sample[] {
  if (!Array.isArray(samples)) {
    throw new GeometryError(
      'BAD_REQUEST',
      `samples is ${show(samples)}, not a list.`,
      'Pass a list of {intended: [x, y], actual: [x, y]}.',
      'samples',
    );
  }
  return samples.map((s: unknown, i) => {
    const pair = (key: 'intended' | 'actual'): [number, number] => {
      const v = typeof s === 'object' && s !== null ? (s as Record<string, unknown>)[key] : undefined;
      if (Array.isArray(v) && v.length === 2) {
        const [a, b] = v as unknown[];
        if (typeof a === 'number' && typeof b === 'number' && Number.isFinite(a) && Number.isFinite(b))
          return [a, b];
      }
      throw new GeometryError(
        'BAD_REQUEST',
        `samples[${i}].${key} is ${show(v)}.`,
        `Pass samples[${i}].${key} as [x, y], two finite numbers.`,
        `samples[${i}].${key}`,
      );
    };
    return { intended: pair('intended'), actual: pair('actual') };
  });
}

function mean(v: readonly number[]): number {
  return v.reduce((a, b) => a + b, 0) / v.length;
}

/** Fit b = scale * a + offset. With no spread in `a` the scale is unknowable: report 1 and the mean shift. */
export function fitAxis(a: readonly number[], b: readonly number[]): AxisFit {
  const n = Math.min(a.length, b.length);
  if (n === 0) return { scale: 1, offset: 0, residual: 0 };
  const ma = mean(a);
  const mb = mean(b);
  let saa = 0;
  let sab = 0;
  for (let i = 0; i < n; i++) {
    const da = (a[i] ?? 0) - ma;
    saa += da * da;
    sab += da * ((b[i] ?? 0) - mb);
  }
  const spread = Math.sqrt(saa / n);
  const scale = spread > 1e-9 * Math.max(1, Math.abs(ma)) ? sab / saa : 1;
  const offset = mb - scale * ma;
  let sse = 0;
  for (let i = 0; i < n; i++) {
    const e = (b[i] ?? 0) - (scale * (a[i] ?? 0) + offset);
    sse += e * e;
  }
  return { scale, offset, residual: Math.sqrt(sse / n) };
}

/** Least squares per axis: actual = scale * intended + offset. */
export function fitAffine(samples: Sample[]): AffineFit {
  const s = validateSamples(samples);
  if (s.length === 0) {
    throw new GeometryError(
      'INSUFFICIENT_SAMPLES',
      'No samples to fit.',
      'Pass at least 3 {intended, actual} pairs, spread over the image.',
      'samples',
    );
  }
  return {
    x: fitAxis(
      s.map((p) => p.intended[0]),
      s.map((p) => p.actual[0]),
    ),
    y: fitAxis(
      s.map((p) => p.intended[1]),
      s.map((p) => p.actual[1]),
    ),
  };
}

/** The same fit with the axes crossed: actual.x against intended.y and actual.y against intended.x. */
export function fitSwapped(samples: Sample[]): AffineFit {
  const s = validateSamples(samples);
  return {
    x: fitAxis(
      s.map((p) => p.intended[1]),
      s.map((p) => p.actual[0]),
    ),
    y: fitAxis(
      s.map((p) => p.intended[0]),
      s.map((p) => p.actual[1]),
    ),
  };
}
