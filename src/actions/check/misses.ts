import { diagnose } from '../../geometry/index.js';
import type { Point } from './verdicts.js';

const FRAME_PROBLEMS = new Set([
  'uniform-scale',
  'constant-offset',
  'axes-swapped',
  'vertical-flip',
  'horizontal-flip',
  'per-axis-scale',
]);

/**
 * Misses of one session: where the described element was (intended) vs where the point would have landed
 * (actual), both CSS viewport px. Several misses that fit one scale/offset are a frame error, not noise.
 */
export class MissLog {
  private readonly samples: Array<{ intended: [number, number]; actual: [number, number] }> = [];

  add(intended: Point, actual: Point): void {
    this.samples.push({ intended: [intended.x, intended.y], actual: [actual.x, actual.y] });
    if (this.samples.length > 8) this.samples.shift();
  }

  clear(): void {
    this.samples.length = 0;
  }

  /** A diagnosis when the recent misses share one transform; undefined while they look like noise. */
  frameProblem() {
    if (this.samples.length < 3) return undefined;
    const d = diagnose(this.samples);
    if (!FRAME_PROBLEMS.has(d.verdict) || !d.fit) return undefined;
    return {
      verdict: d.verdict,
      message: d.message,
      scale: { x: d.fit.x.scale, y: d.fit.y.scale },
      offset: { x: d.fit.x.offset, y: d.fit.y.offset },
      residual: { x: d.fit.x.residual, y: d.fit.y.residual },
      likelyCauses: d.likelyCauses,
      samples: this.samples.length,
    };
  }
}
