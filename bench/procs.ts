/**
 * Process bookkeeping: the bench ends every process it started, and only those. A peer MCP server launches
 * its own Chromium, often in a process group of its own (Playwright and Puppeteer spawn it detached), so a
 * server's tree is read from /proc while it is alive and every process and group in it is ended on close.
 */
import { readdirSync, readFileSync } from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  /** Start time in clock ticks since boot: tells a process from a later one that reuses its pid. */
  start: string;
}

function stat(pid: number): Proc | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may contain spaces; the fields after it are fixed.
    const rest = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid, ppid: Number(rest[1]), pgid: Number(rest[2]), start: rest[19] ?? '' };
  } catch {
    return null;
  }
}

/** The process and all its descendants, as they are now. */
export function processTree(root: number): Proc[] {
  const all: Proc[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = stat(Number(name));
    if (p) all.push(p);
  }
  const byParent = new Map<number, Proc[]>();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const self = all.find((p) => p.pid === root);
  if (!self) return [];
  const out: Proc[] = [self];
  for (let i = 0; i < out.length; i++) out.push(...(byParent.get((out[i] as Proc).pid) ?? []));
  return out;
}

function alive(p: Proc): boolean {
  const now = stat(p.pid);
  return now !== null && now.start === p.start;
}

/** A tree remembered while its root lives, so it can be ended after the root is gone. */
export class TrackedTree {
  private known = new Map<number, Proc>();

  constructor(readonly root: number) {
    this.refresh();
  }

  /** Adds processes started since the last look (call while the root is alive, e.g. after it launched a browser). */
  refresh(): void {
    for (const p of processTree(this.root)) this.known.set(p.pid, p);
  }

  get size(): number {
    return this.known.size;
  }

  living(): Proc[] {
    return [...this.known.values()].filter(alive);
  }

  /** Waits up to `ms` for every known process to exit by itself. */
  async settle(ms: number): Promise<boolean> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (this.living().length === 0) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.living().length === 0;
  }

  /** Ends what is left: each remembered process group (never the bench's own), then each process. */
  kill(signal: NodeJS.Signals = 'SIGKILL'): number {
    const own = stat(process.pid)?.pgid;
    const left = this.living();
    const groups = new Set(left.map((p) => p.pgid).filter((g) => g > 1 && g !== own));
    for (const g of groups) {
      // A group is only signalled when one of our processes leads it (a peer's browser, or the server itself).
      if (!left.some((p) => p.pid === g)) continue;
      try {
        process.kill(-g, signal);
      } catch {
        // gone
      }
    }
    for (const p of this.living()) {
      try {
        process.kill(p.pid, signal);
      } catch {
        // gone
      }
    }
    return left.length;
  }
}

/** Cleanups that must run however the bench ends (an error, Ctrl-C). */
const cleanups = new Set<() => Promise<void> | void>();

export function onCleanup(fn: () => Promise<void> | void): () => void {
  cleanups.add(fn);
  return () => cleanups.delete(fn);
}

/** Runs the cleanups newest first, one after another (the temp folder goes after the servers writing to it). */
export async function cleanupAll(): Promise<void> {
  const list = [...cleanups].reverse();
  cleanups.clear();
  for (const fn of list) {
    try {
      await fn();
    } catch {
      // keep going: the rest must still run
    }
  }
}
