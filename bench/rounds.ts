/**
 * Interleaved timing: each round calls every subject once, in an order that rotates from round to round, so
 * a burst of load from other processes on this 2-core machine lands on all subjects alike.
 */
import { type Summary, summarize } from './stats.js';

export interface Op {
  key: string;
  run: () => Promise<unknown>;
}

export interface Timed {
  ms: number[];
  /** What the last call returned (image size and the like). */
  last: unknown;
  summary: Summary;
}

export async function interleaved(
  ops: Op[],
  warmup: number,
  runs: number,
  onRound?: (round: number) => void,
): Promise<Map<string, Timed>> {
  const out = new Map<string, Timed>();
  for (const op of ops) out.set(op.key, { ms: [], last: undefined, summary: summarize([]) });
  for (let r = 0; r < warmup + runs; r++) {
    for (let k = 0; k < ops.length; k++) {
      const op = ops[(k + r) % ops.length] as Op;
      const t0 = performance.now();
      const value = await op.run();
      const ms = performance.now() - t0;
      const t = out.get(op.key) as Timed;
      t.last = value;
      if (r >= warmup) t.ms.push(ms);
    }
    onRound?.(r);
  }
  for (const t of out.values()) t.summary = summarize(t.ms);
  return out;
}
