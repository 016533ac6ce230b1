/**
 * Interleaved timing: each round calls every subject once, in an order that rotates from round to round, so
 * a burst of load from other processes on this 2-core machine lands on all subjects alike.
 */
import { type Summary, summarize } from './stats.js';

export interface Op {
  key: string;
  run: () => Promise<unknown>;
  /** Measured in only the first this many rounds (a peer 10–20× slower, in --quick), then left out. */
  rounds?: number;
}

/**
 * --quick: the peers' rounds. Their screenshots and clicks are 3–20× trueclick's, so three rounds check the
 * ≥ 5× targets as well as ten, and the ten took 24 s of --quick's capture and click sections.
 */
export const QUICK_PEER_ROUNDS = 3;

/** The fields that give a peer's op QUICK_PEER_ROUNDS under --quick. */
export const peerRounds = (quick: boolean): Pick<Op, 'rounds'> =>
  quick ? { rounds: QUICK_PEER_ROUNDS } : {};

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
      if (op.rounds !== undefined && r >= warmup + op.rounds) continue;
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
