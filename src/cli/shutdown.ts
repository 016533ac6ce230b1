import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { handleSignalsHere, launchesSettled } from '../browser/plumbing/launch.js';

/**
 * How long `trueclick serve` lets a graceful shutdown run (sessions, their contexts, the browser, the HTTP
 * server) before it kills the processes it started and exits. The close takes ~200 ms on an idle machine, and
 * 0.3-5.4 s with ten servers and a CPU burner per core on 2 cores (load ~17, test/cli/sigterm.test.ts); one
 * past 5 s waits on something that will not answer (a frozen or starved Chromium: Playwright's browser.close()
 * waits for the process to end, without a limit), or the machine is too busy for a graceful close anyway. 5 s
 * also ends it before what stops it gives up and SIGKILLs it instead (an MCP client 2 s after SIGTERM, Docker
 * 10 s, Kubernetes 30 s), which would leave the browser's profile folder behind.
 */
export const SHUTDOWN_BOUND_MS = 5_000;

/** How long a forced exit waits for the processes it killed to be gone, before it removes their profiles. */
const REAP_MS = 1_000;

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type Closer = () => Promise<unknown>;

const closers: Closer[] = [];
/** Why the shutdown began (a signal's name, or what the client did), once it has. */
let ending: string | undefined;
let installed = false;

/** Something to close when the server ends, after those added before it; a failure does not stop the rest. */
export function onShutdown(close: Closer): void {
  closers.push(close);
}

/**
 * SIGINT, SIGTERM and SIGHUP end the server through shutdown(): the one handler of the process, installed
 * once however often this is called, and Playwright's own are kept out of the browsers launched after it.
 */
export function handleSignals(): void {
  if (installed) return;
  installed = true;
  handleSignalsHere();
  for (const signal of SIGNALS) process.on(signal, () => onSignal(signal));
}

function onSignal(signal: string): void {
  // A signal while a close is under way: whoever sent it wants the process gone now.
  if (ending !== undefined)
    forceExit(`${ending === signal ? `a second ${signal}` : `${signal} (after ${ending})`} during shutdown`);
  else shutdown(signal);
}

/**
 * Ends the process once: every closer in turn, then exit 0. A close still running after SHUTDOWN_BOUND_MS
 * is given up: the processes this server started are killed, a line on stderr says so, and it exits 1.
 */
export function shutdown(why: string): void {
  if (ending !== undefined) return;
  ending = why;
  // Taken now: a browser's helpers outlive it for a moment once it exits, no longer this process's descendants.
  atStart = started();
  setTimeout(() => forceExit(`shutdown took over ${SHUTDOWN_BOUND_MS / 1000} s (${why})`), SHUTDOWN_BOUND_MS);
  void (async () => {
    for (const close of closers) {
      try {
        await close();
      } catch {
        // Closing is all that is left to do: the next closer runs, and the bound still holds.
      }
    }
    // A browser mid-launch is let come up (its temporary folders are known to Playwright's exit hook then).
    await launchesSettled();
    // Helpers still writing to a profile after its browser exited would make it again once Playwright
    // removed it (seen under load): they go, then what is left of the profiles.
    killAll([...atStart, ...started()]);
    process.exit(0);
  })();
}

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  /** When it started, in clock ticks since boot: tells it from a later process given the same pid. */
  start: string;
  name: string;
  /** The temporary profile Playwright made for the browser it belongs to (never a user's --user-data-dir). */
  profile?: string;
}

let atStart: Proc[] = [];

function stat(pid: number | string): Omit<Proc, 'profile'> | undefined {
  try {
    const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid pgrp …": the name may hold spaces and parentheses, so read from the last ')'.
    const end = line.lastIndexOf(')');
    const f = line.slice(end + 2).split(' ');
    return {
      pid: Number(pid),
      ppid: Number(f[1]),
      pgid: Number(f[2]),
      state: f[0] ?? '',
      start: f[19] ?? '',
      name: line.slice(line.indexOf('(') + 1, end),
    };
  } catch {
    return undefined; // It ended while we read, or there is no /proc.
  }
}

/** The processes this one started, running now (from /proc: none where there is none), with their profile. */
function started(): Proc[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const all = entries.flatMap((e) => (/^\d+$/.test(e) ? (stat(e) ?? []) : []));
  const found: Proc[] = [];
  const todo = [process.pid];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    for (const p of all) {
      if (p.ppid !== pid || ended(p)) continue;
      todo.push(p.pid);
      const profile = tempProfile(p.pid);
      found.push(profile ? { ...p, profile } : p);
    }
  }
  return found;
}

/** A zombie has ended too: it waits only for its parent (this process, about to exit) to reap it. */
const ended = (p: Pick<Proc, 'state'>) => /^[ZX]/.test(p.state);

/** The same process (pid and start time) still running. */
function running(p: Proc): boolean {
  const now = stat(p.pid);
  return now !== undefined && now.start === p.start && !ended(now);
}

function tempProfile(pid: number): string | undefined {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const dir = args.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
    if (dir && dirname(dir) === tmpdir() && basename(dir).startsWith('playwright_chromiumdev_profile-'))
      return dir;
  } catch {
    // Gone already.
  }
  return undefined;
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * SIGKILL to those of `procs` still running (a browser Playwright launched leads a process group of its own,
 * its helpers in it), then their temporary profiles removed once they are gone. The browsers killed, by pid.
 */
function killAll(procs: Proc[]): Proc[] {
  const live = [...new Map(procs.map((p) => [`${p.pid} ${p.start}`, p])).values()].filter(running);
  const kill = (pid: number) => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  for (const p of live) if (p.pgid === p.pid) kill(-p.pid);
  for (const p of live) kill(p.pid);
  const deadline = Date.now() + REAP_MS;
  while (live.some(running) && Date.now() < deadline) sleepSync(20);
  for (const dir of new Set(procs.flatMap((p) => p.profile ?? []))) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Playwright's exit hook tries again.
    }
  }
  return live;
}

function forceExit(why: string): never {
  const killed = killAll([...atStart, ...started()]).filter((p) => p.ppid === process.pid);
  const byName = new Map<string, number[]>();
  for (const p of killed) {
    const name = /chrom/i.test(p.name) ? 'Chromium' : p.name;
    byName.set(name, [...(byName.get(name) ?? []), p.pid]);
  }
  const said = [...byName].map(
    ([name, pids]) => `${name} (pid${pids.length > 1 ? 's' : ''} ${pids.join(', ')})`,
  );
  process.stderr.write(
    `trueclick: ${why}; ${said.length ? `killed ${said.join(', ')}` : 'no process of its own was left'} and exited\n`,
  );
  process.exit(1);
}
