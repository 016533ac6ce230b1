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
  close(): Promise<void>;
}

function once<T>(make: () => Promise<T>): { get: () => Promise<T>; started: () => Promise<T> | undefined } {
  let p: Promise<T> | undefined;
  return { get: () => (p ??= make()), started: () => p };
}

export function createContext(
  opts: BenchOptions,
  fixture: FixtureServer,
  pages: FixtureServer,
  tmp: string,
): Ctx {
  const warnings: string[] = [];
  const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
  const warn = (msg: string) => {
    warnings.push(msg);
    process.stderr.write(`bench: WARNING ${msg}\n`);
  };
  const cdp = once(launchCdp);
  const tab = once(async () => (await cdp.get()).newTab());
  const tc = once(() => startTrueclick());
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
    async close() {
      const closers: Array<Promise<unknown>> = [];
      for (const s of [tc, pw, cdm]) {
        const p = s.started();
        if (p) closers.push(p.then((x) => x?.close()).catch(() => {}));
      }
      await Promise.allSettled(closers);
      const b = cdp.started();
      if (b) await b.then((x) => x.close()).catch(() => {});
    },
  };
}
