/** Memory as the load run, the bench and the large-page test read it. */
import { readFileSync } from 'node:fs';
import { collectGarbage } from '../src/mcp/give-back.js';

/**
 * What this process holds after two full collections (MB): the JS heap and the memory behind typed arrays.
 * It first lets the event loop turn: right after a large CDP answer its message (megabytes) may still be held, and
 * a reading taken then counted it on one side of a difference and not the other (3.4 vs 4.5 MB per frame).
 */
export async function heldMB(): Promise<number> {
  await new Promise((r) => setTimeout(r, 100));
  collectGarbage();
  collectGarbage();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 1e6;
}

/**
 * Resident memory of these processes (MB), as their proportional share (Pss): Chromium's processes map the
 * same libraries and shared memory, and adding up their RSS would count those pages once per process.
 */
export function pssMB(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /^Pss:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return kb / 1024;
}
