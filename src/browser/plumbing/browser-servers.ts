import { type Browser, chromium } from 'playwright-core';
import { BrowserError } from './errors.js';

/** The endpoints of --browser-endpoint, given as one, several, or a comma-separated list. */
export function endpointList(e: string | readonly string[] | undefined): string[] {
  const all = typeof e === 'string' ? [e] : [...(e ?? [])];
  return [...new Set(all.flatMap((x) => x.split(',')).map((x) => x.trim()))].filter(Boolean);
}

const HINT =
  "Check that the server runs and speaks Playwright's protocol (e.g. a playwright-core launchServer's wsEndpoint).";

/** One attempt at a browser server: the connection, or a reason that names it. */
async function connectOnce(endpoint: string): Promise<Browser> {
  return chromium.connect(endpoint, { timeout: 15_000 });
}

const reason = (err: unknown) => (err as Error).message.split('\n')[0] ?? String(err);

/**
 * A server that did not answer is tried again only after this long, unless every other one fails too: a
 * server that hangs instead of refusing would otherwise cost each session its connect timeout.
 */
const RETRY_DEAD_MS = 10_000;

/**
 * The browser servers a trueclick process may use. Sessions are spread over them in turn; a server that
 * does not answer is skipped (said once on stderr, naming it) and the next in turn is tried; only when none
 * answers does the caller get CONNECT_FAILED, naming each. With `keep`, one connection per server is kept
 * and shared (the contexts of an HTTP server's sessions); without it each call connects anew (a session's
 * own connection, closed with it).
 */
export class BrowserServers {
  private turn = 0;
  /** Servers that did not answer, and since when. */
  private readonly dead = new Map<string, number>();
  private readonly kept = new Map<string, Promise<Browser>>();

  constructor(
    readonly endpoints: readonly string[],
    private readonly o: { keep?: boolean; say?: (line: string) => void } = {},
  ) {
    if (endpoints.length === 0) throw new Error('BrowserServers needs at least one endpoint');
  }

  private say(line: string): void {
    (this.o.say ?? ((l: string) => process.stderr.write(`trueclick: ${l}\n`)))(line);
  }

  /** A browser on the next server in turn that answers. */
  async connect(): Promise<{ browser: Browser; endpoint: string }> {
    const n = this.endpoints.length;
    const start = this.turn;
    this.turn = (this.turn + 1) % n;
    const inTurn = this.endpoints.map((_, i) => this.endpoints[(start + i) % n] as string);
    const now = Date.now();
    const resting = (e: string) => now - (this.dead.get(e) ?? -Infinity) < RETRY_DEAD_MS;
    const order = [...inTurn.filter((e) => !resting(e)), ...inTurn.filter(resting)];
    const failures: string[] = [];
    for (const endpoint of order) {
      try {
        const browser = await this.browserAt(endpoint);
        // The next session starts after this one's server: a dead server skipped does not put two in a row on the next.
        this.turn = (this.endpoints.indexOf(endpoint) + 1) % n;
        if (this.dead.delete(endpoint) && n > 1) this.say(`browser server ${endpoint} answers again`);
        return { browser, endpoint };
      } catch (err) {
        failures.push(`${endpoint}: ${reason(err)}`);
        const known = this.dead.has(endpoint);
        this.dead.set(endpoint, Date.now());
        if (!known && n > 1)
          this.say(
            `browser server ${endpoint} did not answer (${reason(err)}); skipping it, sessions go to the other servers until it does`,
          );
      }
    }
    throw n === 1
      ? new BrowserError('CONNECT_FAILED', `Could not connect to a browser server at ${failures[0]}`, HINT)
      : new BrowserError(
          'CONNECT_FAILED',
          `Could not connect to any of the ${n} browser servers: ${failures.join('; ')}`,
          HINT,
        );
  }

  private async browserAt(endpoint: string): Promise<Browser> {
    if (!this.o.keep) return connectOnce(endpoint);
    const held = this.kept.get(endpoint);
    if (held) {
      const b = await held.catch(() => undefined);
      if (b?.isConnected()) return b;
      // The kept connection dropped (the server restarted): connect again, once for all who ask meanwhile.
      if (this.kept.get(endpoint) === held) this.kept.delete(endpoint);
      const again = this.kept.get(endpoint);
      if (again) return again;
    }
    const p = connectOnce(endpoint);
    this.kept.set(endpoint, p);
    p.catch(() => {
      if (this.kept.get(endpoint) === p) this.kept.delete(endpoint);
    });
    return p;
  }

  /** Drops the kept connections (the servers' browsers stay up for their other clients). */
  async close(): Promise<void> {
    const all = [...this.kept.values()];
    this.kept.clear();
    await Promise.all(all.map((p) => p.then((b) => b.close()).catch(() => {})));
  }
}
