/**
 * A fleet on this machine: three `trueclick serve --http` (instances tc1, tc2, tc3, one fleet secret) behind
 * HAProxy running examples/fleet/haproxy.cfg, as the README's "Run a fleet" describes. One server can be
 * killed (SIGKILL, as a crash) and started again under its name and port. Shared by test/mcp/fleet.test.ts
 * and `npm run load -- --fleet 3`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CLI } from '../test/helpers/mcp-client.js';
import { processTree } from './procs.js';

/** The config the README shows; its server names are FLEET_NAMES. */
export const HAPROXY_CFG = fileURLToPath(new URL('../../examples/fleet/haproxy.cfg', import.meta.url));
export const FLEET_NAMES = ['tc1', 'tc2', 'tc3'] as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.once('error', reject);
  });
}

async function until(what: string, ok: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} within ${ms} ms`);
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

export interface ServerChild {
  port: number;
  endpoint: string;
  pid: number;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** The server and the browsers it started, as they are now. */
  pids(): number[];
  /** SIGKILL to the server, then to what is left of the browsers it had started (a crash leaves none). */
  kill(): Promise<void>;
  /** SIGTERM: the server closes its sessions and browsers, then exits. */
  stop(): Promise<void>;
}

/** `trueclick serve --http <port> --caps all …` in a child process, once it has printed its endpoint. */
export async function spawnServer(
  port: number,
  serveArgs: string[],
  env: Record<string, string> = {},
  /** How long it may take to print its endpoint (a busy machine starts node slowly). */
  startMs = 20_000,
): Promise<ServerChild> {
  const child: ChildProcess = spawn(
    process.execPath,
    [CLI, 'serve', '--http', String(port), '--caps', 'all', ...serveArgs],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } },
  );
  let err = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  const exited = once(child, 'exit');
  let endpoint = '';
  await until(
    'trueclick serve --http did not print its endpoint',
    () => {
      endpoint = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err)?.[1] ?? '';
      if (child.exitCode !== null) throw new Error(`trueclick serve exited ${child.exitCode}: ${err}`);
      return endpoint !== '';
    },
    startMs,
  ).catch((e) => {
    child.kill('SIGKILL');
    throw new Error(`${(e as Error).message}: ${err}`);
  });
  const pid = child.pid ?? 0;
  const pids = () => processTree(pid).map((p) => p.pid);
  return {
    port,
    endpoint,
    pid,
    stderr: () => err,
    pids,
    kill: async () => {
      const tree = pids();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      // Chromium ends when its pipe to the server closes; whatever is left after a moment is ended here.
      await new Promise((r) => setTimeout(r, 500));
      for (const p of tree) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One line of HAProxy's log: which server took a request, its status, and the session it named. */
export interface ProxyLine {
  server: string;
  status: number;
  /** The Mcp-Param-Session header (a 2026-07-28 handle), if any. */
  handle?: string;
  /** The Mcp-Session-Id header (a 2025-11-25 session), if any. */
  sessionId?: string;
  method: string;
}

/** A line of the config's log-format: "%s %ST {handle|session id} %HM %HU". */
export function parseProxyLine(line: string): ProxyLine | undefined {
  const m = /^(\S+) (\d+) \{([^|}]*)\|([^}]*)\} (\S+) /.exec(line);
  if (!m) return undefined;
  const named = (v: string | undefined) => (v && v !== '-' ? v : undefined);
  const handle = named(m[3]);
  const sessionId = named(m[4]);
  return {
    server: m[1] as string,
    status: Number(m[2]),
    method: m[5] as string,
    ...(handle ? { handle } : {}),
    ...(sessionId ? { sessionId } : {}),
  };
}

export interface Fleet {
  /** http://127.0.0.1:PORT/mcp on HAProxy: what every client connects to. */
  endpoint: string;
  names: readonly string[];
  server(name: string): ServerChild;
  /** The servers and their browsers, for memory. */
  pids(): number[];
  /** What HAProxy logged so far, one parsed line per request. */
  proxyLog(): ProxyLine[];
  /** HAProxy's own output (state changes, warnings). */
  proxyOutput(): string;
  /** SIGKILL to one server (and its browsers): a crash. */
  kill(name: string): Promise<void>;
  /** The killed server started again, same name, port and secret, once HAProxy takes it back. */
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}

export function haproxyMissing(): string | undefined {
  const r = spawnSync('haproxy', ['-v'], { encoding: 'utf8' });
  return r.status === 0
    ? undefined
    : 'haproxy is not installed: sudo apt-get install -y haproxy (scripts/ensure.sh does it as root)';
}

/** HAProxy's state line for a server, e.g. "Server trueclick/tc2 is UP". */
const stateOf = (out: string, name: string) =>
  [...out.matchAll(new RegExp(`Server trueclick/${name} is (UP|DOWN)`, 'g'))].at(-1)?.[1];

/**
 * The fleet of examples/fleet/haproxy.cfg. `servers: 1` runs tc1 alone behind the same config (all three of
 * its server lines name tc1's address): the proxy's path with one server, for comparison.
 */
export async function startFleet(o: { servers?: 1 | 3; serveArgs?: string[] } = {}): Promise<Fleet> {
  const missing = haproxyMissing();
  if (missing) throw new Error(missing);
  const names: readonly string[] = o.servers === 1 ? FLEET_NAMES.slice(0, 1) : FLEET_NAMES;
  const secret = randomBytes(32).toString('hex');
  const ports = new Map<string, number>();
  for (const name of names) ports.set(name, await freePort());
  const addressOf = (line: string) => `127.0.0.1:${ports.get(line) ?? ports.get('tc1')}`;
  const start = (name: string) =>
    spawnServer(ports.get(name) as number, ['--instance', name, ...(o.serveArgs ?? [])], {
      TRUECLICK_FLEET_SECRET: secret,
    });
  const servers = new Map<string, ServerChild>();
  let proxy: ChildProcess | undefined;
  let out = '';
  const stopAll = async () => {
    if (proxy && proxy.exitCode === null && proxy.signalCode === null) {
      const gone = once(proxy, 'exit');
      proxy.kill('SIGTERM');
      await gone;
    }
    await Promise.all([...servers.values()].map((s) => s.stop()));
  };
  try {
    for (const [name, s] of await Promise.all(names.map(async (name) => [name, await start(name)] as const)))
      servers.set(name, s);
    const front = await freePort();
    proxy = spawn('haproxy', ['-f', HAPROXY_CFG, '-db'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        FLEET_PORT: String(front),
        ...Object.fromEntries(FLEET_NAMES.map((n) => [n.toUpperCase(), addressOf(n)])),
      },
    });
    proxy.stdout?.on('data', (d) => {
      out += String(d);
    });
    proxy.stderr?.on('data', (d) => {
      out += String(d);
    });
    const p = proxy;
    await until(
      'HAProxy did not listen',
      () => {
        if (p.exitCode !== null) throw new Error(`haproxy exited ${p.exitCode}: ${out}`);
        return accepts(front);
      },
      10_000,
    );
    const server = (name: string) => {
      const s = servers.get(name);
      if (!s) throw new Error(`no server ${name} in the fleet (${names.join(', ')})`);
      return s;
    };
    return {
      endpoint: `http://127.0.0.1:${front}/mcp`,
      names,
      server,
      pids: () => [...servers.values()].flatMap((s) => s.pids()),
      proxyLog: () =>
        out
          .split('\n')
          .map(parseProxyLine)
          .filter((l): l is ProxyLine => l !== undefined),
      proxyOutput: () => out,
      kill: async (name) => {
        await server(name).kill();
        await until(`HAProxy did not mark ${name} down`, () => stateOf(out, name) === 'DOWN', 10_000);
      },
      restart: async (name) => {
        server(name);
        servers.set(name, await start(name));
        // A server HAProxy had marked down takes requests again once a check sees it up.
        await until(`HAProxy did not mark ${name} up again`, () => stateOf(out, name) !== 'DOWN', 10_000);
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
