import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { after, before, describe, type TestContext, test } from 'node:test';
import { SHUTDOWN_BOUND_MS } from '../../src/cli/shutdown.js';
import { CLI, connectHttp, type McpHarness, startStdio } from '../helpers/mcp-client.js';

// Issue 31, item 6: a server sent SIGTERM must end, and every process it started with it, within the bound
// (SHUTDOWN_BOUND_MS, then the browsers are killed), whatever the moment: start-up, a browser mid-launch,
// right after the first navigate, a navigation or a wait in flight, idle, a Chromium that no longer answers
// (SIGSTOP), a second SIGTERM, and over stdio. The machine is kept busy meanwhile (a CPU burner per core);
// how fast it ends is not asserted, only that it does within the bound.

/**
 * The bound, and time for the forced exit's kill and reap (up to 1 s) and for a loaded machine: with every
 * case running at once the server takes the signal late, and its exit is seen late (a forced exit was seen
 * 8.2 s after SIGTERM, a graceful one 6.9 s).
 */
const WITHIN_MS = SHUTDOWN_BOUND_MS + 6_000;
const FORCED = /^trueclick: .*; (killed .*|no process of its own was left) and exited$/m;

interface Proc {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot: tells a process from a later one that reuses its pid. */
  start: string;
  state: string;
  name: string;
}

function processes(): Proc[] {
  const all: Proc[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const end = stat.lastIndexOf(')');
      const f = stat.slice(end + 2).split(' ');
      all.push({
        pid: Number(entry),
        ppid: Number(f[1]),
        start: f[19] ?? '',
        state: f[0] ?? '',
        name: stat.slice(stat.indexOf('(') + 1, end),
      });
    } catch {
      // It ended while we read.
    }
  }
  return all;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Alive: the same process (pid and start time) is there and has not ended (a zombie has). */
function alive(p: Pick<Proc, 'pid' | 'start'>): boolean {
  try {
    const stat = readFileSync(`/proc/${p.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return f[19] === p.start && !/^[ZX]/.test(f[0] ?? '');
  } catch {
    return false;
  }
}

/** Every process a server started, as seen by a poll of /proc every 25 ms from its spawn on. */
class Tree {
  readonly seen = new Map<number, Proc>();
  /** The user-data-dir of the Chromium it launched (a temporary one), once seen. */
  profile: string | undefined;
  constructor(readonly root: Proc) {}

  update(all: Proc[]): void {
    const todo = [this.root.pid];
    for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
      for (const p of all) {
        if (p.ppid !== pid || /^[ZX]/.test(p.state)) continue;
        todo.push(p.pid);
        // Seen first between fork and exec it still runs node: its profile is read until found.
        this.profile ??= /--user-data-dir=(\S+)/.exec(cmdline(p.pid))?.[1];
        if (!this.seen.has(p.pid)) this.seen.set(p.pid, p);
      }
    }
  }

  /** The browser process: the server's child that runs Chromium now (seen first, it may have run node). */
  browser(): Proc | undefined {
    return [...this.seen.values()].find((p) => {
      const cmd = cmdline(p.pid);
      return p.ppid === this.root.pid && alive(p) && /chrom/i.test(cmd) && !/--type=/.test(cmd);
    });
  }

  /** What is still running: of those seen, and any process whose command line names its profile. */
  left(): string[] {
    const named = this.profile
      ? processes().filter((p) => !/^[ZX]/.test(p.state) && cmdline(p.pid).includes(this.profile as string))
      : [];
    const still = [...this.seen.values(), ...named].filter(alive);
    return [...new Set(still.map((p) => `${p.pid} ${p.name} ${cmdline(p.pid).slice(0, 120)}`))];
  }
}

const trees = new Set<Tree>();
let poll: NodeJS.Timeout | undefined;
const burners: ChildProcess[] = [];
let pages: Server;
let base = '';
/** Requests for /slow the page server holds open (a navigation in flight), and who waits for the next. */
let slowSeen: (() => void) | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

function procOf(pid: number): Proc {
  const p = processes().find((q) => q.pid === pid);
  if (!p) throw new Error(`process ${pid} is not there`);
  return p;
}

before(async () => {
  // The machine busy: a CPU burner per core (2 to 4) for the whole file.
  const n = Math.min(4, Math.max(2, availableParallelism()));
  for (let i = 0; i < n; i++)
    burners.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  pages = createServer((req, res) => {
    if (req.url?.startsWith('/slow')) {
      // Never answered: the navigation stays in flight until the server goes.
      slowSeen?.();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>sigterm</title><h1>A page</h1>');
  });
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  poll = setInterval(() => {
    if (trees.size === 0) return;
    const all = processes();
    for (const t of trees) t.update(all);
  }, 25);
});

after(async () => {
  for (const b of burners) b.kill('SIGKILL');
  if (poll) clearInterval(poll);
  // Whatever a failed case left: nothing of it outlives the file.
  for (const t of trees) {
    for (const p of [t.root, ...t.seen.values()].filter(alive)) {
      try {
        process.kill(p.pid, 'SIGCONT');
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  pages?.closeAllConnections();
  await new Promise((r) => pages?.close(r));
});

interface Served {
  tree: Tree;
  stderr(): string;
  /** Resolves when the server process has exited: its code, or the signal that ended it (unknown: undefined). */
  exited: Promise<{ code: number | null | undefined; signal: NodeJS.Signals | null }>;
  client?: McpHarness;
  endpoint: string;
}

/** `trueclick serve --http 0`; resolves once spawned (`listening`: once it has printed its endpoint). */
async function serveHttp(listening = true): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '0', '--caps', 'all'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const tree = new Tree(procOf(child.pid ?? 0));
  trees.add(tree);
  let endpoint = '';
  if (listening)
    await until(
      'the endpoint on stderr',
      () => {
        endpoint = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1] ?? '';
        return endpoint !== '' || child.exitCode !== null;
      },
      30_000,
    );
  return { tree, stderr: () => err, exited, endpoint };
}

/**
 * SIGTERM to the server; it exits and every process it started is gone within the bound. A graceful
 * shutdown exits 0; one that ran out of time exits 1 and says so on stderr (under load either may happen).
 */
async function termAndCheck(t: TestContext, s: Served, expectForced = false): Promise<void> {
  const t0 = Date.now();
  process.kill(s.tree.root.pid, 'SIGTERM');
  await checkGone(t, s, t0, expectForced);
}

async function checkGone(t: TestContext, s: Served, t0: number, expectForced: boolean): Promise<void> {
  const ended = await Promise.race([s.exited, sleep(WITHIN_MS).then(() => null)]);
  const exitMs = Date.now() - t0;
  assert.ok(
    ended,
    `the server (pid ${s.tree.root.pid}) had not exited ${WITHIN_MS} ms after SIGTERM; stderr: ${s.stderr()}`,
  );
  while (s.tree.left().length && Date.now() - t0 < WITHIN_MS) await sleep(50);
  assert.deepEqual(
    s.tree.left(),
    [],
    `processes the server started, left ${Date.now() - t0} ms after SIGTERM`,
  );
  const forced = FORCED.test(s.stderr());
  // How it went, for the log (not asserted: the machine is busy on purpose).
  t.diagnostic(
    `exited ${exitMs} ms after SIGTERM (${ended.signal ?? `code ${ended.code ?? '?'}`}), ${s.tree.seen.size} processes started, ${forced ? `forced: ${FORCED.exec(s.stderr())?.[0]}` : 'graceful'}`,
  );
  if (expectForced) {
    assert.equal(ended.code, 1, s.stderr());
    assert.ok(forced, `a forced exit says so on stderr: ${s.stderr()}`);
  } else if (ended.signal === null && ended.code !== undefined) {
    // Exit 0 after a graceful close, or 1 with the line when the load made it run past the bound.
    assert.ok(ended.code === 0 || (ended.code === 1 && forced), `exit ${ended.code}: ${s.stderr()}`);
  }
  await s.client?.close().catch(() => {});
}

async function navigated(s: Served): Promise<McpHarness> {
  const client = await connectHttp(s.endpoint);
  s.client = client;
  const r = await client.call('browser_navigate', { url: `${base}/` });
  assert.ok(!r.isError, JSON.stringify(r.content).slice(0, 300));
  return client;
}

describe('SIGTERM ends serve and every process it started, within the bound, on a busy machine', {
  concurrency: true,
}, () => {
  test('during start-up, before it listens', async (t) => {
    const s = await serveHttp(false);
    await sleep(200);
    // Too early for any handler the process ends by the signal itself; a little later it exits 0.
    await termAndCheck(t, s);
  });

  test('listening, before any browser is up', async (t) => {
    const s = await serveHttp();
    await termAndCheck(t, s);
  });

  test('with the browser mid-launch (the first navigate)', async (t) => {
    const s = await serveHttp();
    const client = await connectHttp(s.endpoint);
    s.client = client;
    void client.call('browser_navigate', { url: `${base}/` }).catch(() => {});
    await until('a Chromium process of the server', () => s.tree.browser() !== undefined, 30_000);
    await termAndCheck(t, s);
  });

  test('right after the first browser_navigate returned', async (t) => {
    const s = await serveHttp();
    await navigated(s);
    await termAndCheck(t, s);
  });

  test('with a navigation in flight', async (t) => {
    const s = await serveHttp();
    const client = await navigated(s);
    const requested = new Promise<void>((r) => {
      slowSeen = r;
    });
    void client.call('browser_navigate', { url: `${base}/slow` }).catch(() => {});
    await requested;
    await termAndCheck(t, s);
  });

  test('with a wait in flight', async (t) => {
    const s = await serveHttp();
    const client = await navigated(s);
    void client.call('browser_wait_for', { seconds: 30 }).catch(() => {});
    await sleep(300);
    await termAndCheck(t, s);
  });

  test('idle', async (t) => {
    const s = await serveHttp();
    await navigated(s);
    await sleep(1000);
    await termAndCheck(t, s);
  });

  test('a Chromium that does not answer (SIGSTOP): killed at the bound, said on stderr', async (t) => {
    const s = await serveHttp();
    await navigated(s);
    const browser = s.tree.browser();
    assert.ok(browser, 'the server launched a Chromium');
    process.kill(browser.pid, 'SIGSTOP');
    await termAndCheck(t, s, true);
    assert.match(
      s.stderr(),
      new RegExp(
        `trueclick: shutdown took over ${SHUTDOWN_BOUND_MS / 1000} s \\(SIGTERM\\); killed Chromium \\(pid ${browser.pid}\\) and exited`,
      ),
    );
  });

  test('a second SIGTERM ends it at once, the same way', async (t) => {
    const s = await serveHttp();
    await navigated(s);
    const browser = s.tree.browser();
    assert.ok(browser, 'the server launched a Chromium');
    process.kill(browser.pid, 'SIGSTOP');
    const t0 = Date.now();
    process.kill(s.tree.root.pid, 'SIGTERM');
    await sleep(500);
    process.kill(s.tree.root.pid, 'SIGTERM');
    await checkGone(t, s, t0, true);
    assert.match(
      s.stderr(),
      new RegExp(
        `trueclick: a second SIGTERM during shutdown; killed Chromium \\(pid ${browser.pid}\\) and exited`,
      ),
    );
  });

  test('over stdio', async (t) => {
    const client = await startStdio();
    const pid = (client.client.transport as unknown as { pid: number | null }).pid ?? 0;
    const tree = new Tree(procOf(pid));
    trees.add(tree);
    const s: Served = {
      tree,
      stderr: () => client.stderr(),
      // The SDK's transport owns the child: its end is seen in /proc, its exit code is not.
      exited: until('the stdio server to exit', () => !alive(tree.root), 60_000).then(() => ({
        code: undefined,
        signal: null,
      })),
      client,
      endpoint: '',
    };
    const r = await client.call('browser_navigate', { url: `${base}/` });
    assert.ok(!r.isError, JSON.stringify(r.content).slice(0, 300));
    assert.ok(tree.browser(), 'the server launched a Chromium');
    await termAndCheck(t, s);
  });
});
