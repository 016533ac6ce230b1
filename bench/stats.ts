/** Order statistics for the benchmark: medians and tails of a list of samples (ms). */

export interface Summary {
  n: number;
  median: number;
  p90: number;
  p99: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile (q in 0..1) of an ascending list; the median interpolates between the middle two. */
function rank(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i] as number;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export function summarize(xs: number[]): Summary {
  const s = [...xs].filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return {
    n: s.length,
    median: median(s),
    p90: rank(s, 0.9),
    p99: rank(s, 0.99),
    min: s[0] ?? Number.NaN,
    max: s.at(-1) ?? Number.NaN,
  };
}

/** Milliseconds a call took, and its result. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** 1 decimal below 100, none above; '—' for a missing number. */
export function fmtMs(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '—';
  return n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : n.toFixed(0);
}

export function fmtRatio(n: number | undefined): string {
  if (n === undefined || !Number.isFinite(n)) return '—';
  return `${n < 10 ? n.toFixed(2) : n.toFixed(1)}×`;
}
