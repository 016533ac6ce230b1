/** The servers and browsers the sections share, started on first use and closed once at the end. */
import type { FixtureServer } from '../fixtures/server.js';
import { type CdpBrowser, type CdpTab, launchCdp } from './cdp.js';
import type { BenchOptions } from './options.js';
import { type DevtoolsMcp, type PlaywrightMcp, startDevtoolsMcp, startPlaywrightMcp } from './peers.js';
import { startTrueclick, type Trueclick } from './trueclick.js';

export interface Ctx {
  opts: BenchOptions;
  /** The real fixture server (hits recorded): race and stale. */
  fixture: FixtureServer;
  /** The same pages without the hit beacon: the timed sections. */
  pages: FixtureServer;
  tmp: string;
  log(msg: string): void;
  warn(msg: string): void;
  warnings: string[];
  cdp(): Promise<CdpBrowser>;
  /** The bare-CDP tab of the speed sections. */
  tab(): Promise<CdpTab>;
  trueclick(): Promise<Trueclick>;
  /** null when the peer could not be started (the reason is in the warnings). */
  playwright(): Promise<PlaywrightMcp | null>;
  devtools(): Promise<DevtoolsMcp | null>;
  /**
   * A context for a section that runs beside others (bench/run.ts): its own trueclick server and its own
   * bare-CDP browser, so no two sections drive one page; the fixture servers, options, log and peers are
   * shared (only one section of a group uses the peers). Its close() ends only what it started.
   */
  fork(name: string): Ctx;
  close(): Promise<void>;
}

function once<T>(make: () => Promise<T>): { get: () => Promise<T>; started: () => Promise<T> | undefined } {
  let p: Promise<T> | undefined;
  return { get: () => (p ??= make()), started: () => p };
}

async function closeAll(
  servers: Array<{ started: () => Promise<{ close(): Promise<void> } | null> | undefined }>,
  browser: { started: () => Promise<CdpBrowser> | undefined },
): Promise<void> {
  const closers: Array<Promise<unknown>> = [];
  for (const s of servers) {
    const p = s.started();
    if (p) closers.push(p.then((x) => x?.close()).catch(() => {}));
  }
  await Promise.allSettled(closers);
  const b = browser.started();
  if (b) await b.then((x) => x.close()).catch(() => {});
}

export function createContext(
  opts: BenchOptions,
  fixture: FixtureServer,
  pages: FixtureServer,
  tmp: string,
): Ctx {
  const warnings: string[] = [];
  const t0 = Date.now();
  // Seconds since the start on every line: where the time goes shows in the log itself.
  const log = (msg: string) =>
    process.stderr.write(`bench [${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s]: ${msg}\n`);
  const warn = (msg: string) => {
    warnings.push(msg);
    log(`WARNING ${msg}`);
  };
  const peer = <T>(name: string, make: () => Promise<T>) =>
    once(async () => {
      try {
        return await make();
      } catch (err) {
        warn(
          `${name} did not start, its comparisons are not checked: ${(err as Error).message.split('\n')[0]}`,
        );
        return null;
      }
    });
  const pw = peer('Playwright MCP', () => startPlaywrightMcp(tmp));
  const cdm = peer('chrome-devtools-mcp', () => startDevtoolsMcp(tmp));

  const make = (label: string | null): Ctx => {
    const cdp = once(launchCdp);
    const tab = once(async () => (await cdp.get()).newTab());
    const tc = once(() => startTrueclick(label ? `trueclick (${label})` : 'trueclick'));
    // The root context closes the peers; a fork leaves them to it.
    const own = label ? [tc] : [tc, pw, cdm];
    return {
      opts,
      fixture,
      pages,
      tmp,
      log,
      warn,
      warnings,
      cdp: cdp.get,
      tab: tab.get,
      trueclick: tc.get,
      playwright: pw.get,
      devtools: cdm.get,
      fork: (name) => make(name),
      close: () => closeAll(own, cdp),
    };
  };
  return make(null);
}
