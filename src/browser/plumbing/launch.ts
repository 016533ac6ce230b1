import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findDevToolsEndpoint } from './auto-connect.js';
import { BrowserServers, endpointList } from './browser-servers.js';
import { findChromium } from './chromium-path.js';
import { BrowserError } from './errors.js';
import { frontPage } from './front-tab.js';
import { PageDriver } from './page-driver.js';
import { type BlockedRequest, enforceOrigins, type UrlPolicy } from './url-policy.js';

export interface BrowserOptions {
  executablePath?: string;
  headless?: boolean;
  /** devicePixelRatio to run at; unset = the browser's own (1 when launched headless). */
  deviceScaleFactor?: number;
  viewport?: { width: number; height: number };
  /** `emulated`: Emulation.setDeviceMetricsOverride in our CDP session; `real`: --force-device-scale-factor. */
  scaleSource?: 'emulated' | 'real';
  /** Playwright hides scrollbars in headless; real desktops often show classic ones, so by default we do too. */
  hideScrollbars?: boolean;
  /** A running Chromium to attach to over CDP (http://host:port or ws://…). */
  cdpEndpoint?: string;
  /**
   * Browser servers that speak Playwright's protocol (ws://…: playwright-core's launchServer, a browser
   * service): one, several, or a comma-separated list. Sessions are spread over those that answer.
   */
  browserEndpoint?: string | readonly string[];
  /** With cdpEndpoint: a new context of our own instead of the user's tabs. */
  isolated?: boolean;
  /** A persistent profile (a user's logins): Chromium runs with this user-data folder. */
  userDataDir?: string;
  /** Attach to the running Chrome that allows remote debugging (its DevToolsActivePort, in userDataDir if set). */
  autoConnect?: boolean;
  /** A Playwright storage state file (cookies, local storage) the session's context starts with. */
  storageState?: string;
  extraArgs?: string[];
  /** Where the browser may go (schemes, allowed and blocked origins). */
  urlPolicy?: UrlPolicy;
}

// Without the background-networking flags Chromium keeps dialling out, which this kind of machine refuses.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

export interface BrowserHandle {
  /** The browser, when Playwright gives one (a persistent profile's context has none). */
  browser: Browser | null;
  context: BrowserContext;
  /** The first tab's driver. */
  driver: PageDriver;
  attached: boolean;
  /** A driver for another tab of the context (one the page opened, or browser_tabs new), set up like the first. */
  driverFor(page: Page): Promise<PageDriver>;
  /** Document requests the URL policy failed, newest last. */
  blocked: BlockedRequest[];
  /** Whether the browser behind the handle is still there. */
  isConnected(): boolean;
  /** What the agent hears when this handle replaced one that was lost (default: a new browser started). */
  regained?: string;
  /** Why the tab went, when its source knows better than "it closed" (the user stopped sharing it). */
  whyLost?: () => Promise<Error | undefined>;
  /**
   * Whether this connection ended because another took its place (the user shared another tab), so a
   * read cut short by it may be taken again on the next; it may wait a moment for the source to say so.
   */
  handedOver?: () => Promise<boolean>;
  close(): Promise<void>;
}

export type Metrics = { width: number; height: number; deviceScaleFactor: number } | null;

/** A CDP session of our own on the page, with the viewport and scale factor the session runs at. */
async function driverWith(
  context: BrowserContext,
  page: Page,
  metrics: Metrics,
  windowRatio?: number,
): Promise<PageDriver> {
  const cdp = await context.newCDPSession(page);
  if (metrics) await cdp.send('Emulation.setDeviceMetricsOverride', { ...metrics, mobile: false });
  const driver = await PageDriver.create(page, cdp);
  if (windowRatio !== undefined) driver.windowRatio = windowRatio;
  return driver;
}

/**
 * The ratio the window of a browser launched here draws at, where it is known: a headless Chromium draws at
 * 1 unless told another (`real`, or --force-device-scale-factor among the extra flags); an emulated ratio is
 * drawn on top of it.
 */
function launchedWindowRatio(opts: BrowserOptions): number | undefined {
  const forced =
    opts.scaleSource === 'real' || opts.extraArgs?.some((a) => a.startsWith('--force-device-scale'));
  return (opts.headless ?? true) && !forced ? 1 : undefined;
}

/** The viewport and scale factor a browser trueclick drives runs at: the options, or 1280×800 at DPR 1. */
function ownMetrics(opts: BrowserOptions): Metrics {
  const viewport = opts.viewport ?? DEFAULT_VIEWPORT;
  const real = opts.scaleSource === 'real' && opts.deviceScaleFactor !== undefined;
  // 0 keeps the real scale factor of the window: the `real` world, where CSS viewports can be fractional.
  return { ...viewport, deviceScaleFactor: real ? 0 : (opts.deviceScaleFactor ?? 1) };
}

/** A user's browser keeps its own viewport and scale factor unless the options name them. */
function attachedMetrics(opts: BrowserOptions): Metrics {
  if (opts.deviceScaleFactor === undefined && !opts.viewport) return null;
  return { ...(opts.viewport ?? DEFAULT_VIEWPORT), deviceScaleFactor: opts.deviceScaleFactor ?? 0 };
}

/** The URL policy's origins are enforced once per browser; its sessions share the record of what it failed. */
const guards = new WeakMap<Browser, Promise<BlockedRequest[]>>();

function guard(browser: Browser | null, policy: UrlPolicy | undefined): Promise<BlockedRequest[]> {
  if (!browser) return Promise.resolve([]);
  let g = guards.get(browser);
  if (!g) {
    const blocked: BlockedRequest[] = [];
    g = (
      policy
        ? enforceOrigins(browser, policy, (b) => {
            blocked.push(b);
            if (blocked.length > 200) blocked.shift();
          })
        : Promise.resolve(null)
    ).then(() => blocked);
    guards.set(browser, g);
  }
  return g;
}

const setupFailed = (err: unknown) =>
  err instanceof BrowserError
    ? err
    : new BrowserError(
        'LAUNCH_FAILED',
        `The browser started but could not be set up: ${(err as Error).message.split('\n')[0]}`,
        'Check --viewport, --device-scale-factor and --storage-state, then retry.',
      );

/**
 * Whether this process ends its browsers itself on SIGINT, SIGTERM and SIGHUP (`trueclick serve`, see
 * src/cli/shutdown.ts). Playwright's own handlers would run beside its one: on SIGTERM they close every
 * browser under the sessions still using them, on SIGINT they exit (130) as soon as the browsers are gone,
 * before the server has closed, and on SIGHUP they close the browsers and leave the server up. Playwright's
 * exit hook stays: whatever way the process exits, it SIGKILLs the browsers it launched (one mid-launch too).
 */
let signalsHandledHere = false;

/** This process handles its signals itself: browsers launched from now on leave them to it. */
export function handleSignalsHere(): void {
  signalsHandledHere = true;
}

/**
 * Launches under way: a process that exits meanwhile, before Playwright has spawned the browser, leaves its
 * temporary folders behind (Playwright's exit hook knows a browser only once it is spawned).
 */
const launching = new Set<Promise<unknown>>();

function tracked<T>(launch: Promise<T>): Promise<T> {
  launching.add(launch);
  const done = () => launching.delete(launch);
  launch.then(done, done);
  return launch;
}

/** Settles once no launch is under way (what they started is then the exit hook's to kill if still open). */
export async function launchesSettled(): Promise<void> {
  while (launching.size) await Promise.allSettled([...launching]);
}

function launchArgs(opts: BrowserOptions) {
  const executablePath = findChromium(opts.executablePath);
  const args = [...CHROMIUM_ARGS, ...(opts.extraArgs ?? [])];
  if (opts.scaleSource === 'real' && opts.deviceScaleFactor !== undefined)
    args.push(`--force-device-scale-factor=${opts.deviceScaleFactor}`);
  if (opts.hideScrollbars) args.push('--hide-scrollbars');
  return {
    executablePath,
    headless: opts.headless ?? true,
    args,
    // Playwright adds --hide-scrollbars in headless (and would filter ours out): keep it only when asked.
    ...(opts.hideScrollbars ? {} : { ignoreDefaultArgs: ['--hide-scrollbars'] }),
    timeout: 30_000,
    ...(signalsHandledHere ? { handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false } : {}),
  };
}

const launchFailed = (what: string, err: unknown) =>
  new BrowserError(
    'LAUNCH_FAILED',
    `${what} did not start: ${(err as Error).message.split('\n')[0]}`,
    'Check that it runs: chromium --headless --no-sandbox --version. Reinstall with: sudo apt-get install -y chromium',
  );

/** Launches Debian's Chromium with trueclick's flags (a real scale factor, scrollbars as asked). */
export async function launchChromium(opts: BrowserOptions = {}): Promise<Browser> {
  const launch = launchArgs(opts);
  try {
    return await tracked(chromium.launch(launch));
  } catch (err) {
    throw launchFailed(`Chromium at ${launch.executablePath}`, err);
  }
}

/** Turn and dead-server record per list of browser servers, for sessions that each connect on their own. */
const ownConnections = new Map<string, BrowserServers>();

/** A browser for trueclick: reached on a browser server when any is named, else launched here. */
export function startBrowser(opts: BrowserOptions): Promise<Browser> {
  const endpoints = endpointList(opts.browserEndpoint);
  if (endpoints.length === 0) return launchChromium(opts);
  const key = endpoints.join(' ');
  let servers = ownConnections.get(key);
  if (!servers) {
    servers = new BrowserServers(endpoints);
    ownConnections.set(key, servers);
  }
  return servers.connect().then((c) => c.browser);
}

/**
 * A new isolated context on a browser, set up for trueclick: the viewport and scale factor on its first
 * tab, the URL guard, a storage state if asked. `close` ends what the handle owns (the browser, the
 * connection, or only the context).
 */
export async function contextOn(
  browser: Browser,
  opts: BrowserOptions,
  close: (context: BrowserContext) => Promise<void>,
  metrics: Metrics = ownMetrics(opts),
  windowRatio?: number,
): Promise<BrowserHandle> {
  try {
    // viewport:null keeps Playwright's own emulation out: a screenshot taken over our CDP session would not
    // follow emulation set by Playwright's session (research/baselines.md), so our session owns it.
    const context = await browser.newContext({
      viewport: null,
      ...(opts.storageState ? { storageState: opts.storageState } : {}),
    });
    const driverFor = (page: Page) => driverWith(context, page, metrics, windowRatio);
    const blocked = await guard(browser, opts.urlPolicy);
    const driver = await driverFor(await context.newPage());
    return {
      browser,
      context,
      driver,
      attached: false,
      driverFor,
      blocked,
      isConnected: () => browser.isConnected(),
      close: () => close(context),
    };
  } catch (err) {
    throw setupFailed(err);
  }
}

/**
 * A browser of the session's own: launched, connected to a browser server (--browser-endpoint), attached
 * over CDP (--cdp-endpoint, or --auto-connect to the running browser that allows it), or a persistent
 * profile (--user-data-dir).
 */
export async function openBrowser(opts: BrowserOptions = {}): Promise<BrowserHandle> {
  if (opts.autoConnect) return attach(opts, await findDevToolsEndpoint(opts.userDataDir));
  if (opts.cdpEndpoint) return attach(opts);
  if (opts.userDataDir) return persistent(opts);
  const remote = endpointList(opts.browserEndpoint).length > 0;
  const browser = await startBrowser(opts);
  try {
    // A browser server's window is its own: how it draws is not known here.
    const windowRatio = remote ? undefined : launchedWindowRatio(opts);
    const close = async (context: BrowserContext) => {
      // A remote server's browser stays up for its other clients: close our context, then the connection.
      if (remote) await context.close().catch(() => {});
      await browser.close();
    };
    return await contextOn(browser, opts, close, ownMetrics(opts), windowRatio);
  } catch (err) {
    // A browser we started and cannot use must not outlive the call (serve retries on every tool call).
    await browser.close().catch(() => {});
    throw err;
  }
}

/** A persistent profile: Chromium runs on the user-data folder, with its logins and storage. */
async function persistent(opts: BrowserOptions): Promise<BrowserHandle> {
  const launch = launchArgs(opts);
  let context: BrowserContext;
  try {
    context = await tracked(
      chromium.launchPersistentContext(opts.userDataDir as string, { ...launch, viewport: null }),
    );
  } catch (err) {
    throw launchFailed(`Chromium on the profile ${opts.userDataDir}`, err);
  }
  try {
    let open = true;
    context.on('close', () => {
      open = false;
    });
    const metrics = ownMetrics(opts);
    const windowRatio = launchedWindowRatio(opts);
    const driverFor = (page: Page) => driverWith(context, page, metrics, windowRatio);
    // The profile's browser is ours alone: the origin lists hold on it as on a launched one.
    const blocked = await guard(context.browser(), opts.urlPolicy);
    const driver = await driverFor(context.pages()[0] ?? (await context.newPage()));
    return {
      browser: null,
      context,
      driver,
      attached: false,
      driverFor,
      blocked,
      isConnected: () => open,
      close: () => context.close(),
    };
  } catch (err) {
    await context.close().catch(() => {});
    throw setupFailed(err);
  }
}

/**
 * Attaches to a running Chromium over CDP. Without `isolated` the user's own tabs are used (the one in
 * front, see frontPage) and never closed by us.
 */
async function attach(opts: BrowserOptions, endpoint = opts.cdpEndpoint ?? ''): Promise<BrowserHandle> {
  let browser: Browser;
  try {
    browser = await chromium.connectOverCDP(endpoint, { timeout: 15_000 });
  } catch (err) {
    throw new BrowserError(
      'CONNECT_FAILED',
      `Could not attach to a browser at ${endpoint}: ${(err as Error).message.split('\n')[0]}`,
      opts.autoConnect
        ? 'Allow the connection in the browser (it asks when a client connects), or turn remote debugging on again at chrome://inspect/#remote-debugging, then retry.'
        : 'Start Chromium with --remote-debugging-port=9222 and pass --cdp-endpoint http://127.0.0.1:9222',
    );
  }
  const metrics = attachedMetrics(opts);
  if (opts.isolated) {
    // Our own context in the user's browser: closing it leaves their tabs as they were.
    return contextOn(browser, opts, (context) => context.close(), metrics);
  }
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page: Page = (await frontPage(context, endpoint)) ?? (await context.newPage());
  return usersTabs(browser, context, page, metrics, opts);
}

/**
 * A handle on tabs of the user's own browser, acting on `page` first. The user's browser stays open when
 * we go: closing the handle only ends trueclick's sessions on its tabs.
 */
export async function usersTabs(
  browser: Browser,
  context: BrowserContext,
  page: Page,
  metrics: Metrics,
  opts: BrowserOptions,
): Promise<BrowserHandle> {
  // A tab in the background does not paint, and its screenshot waits for a frame that never comes (seen
  // when another client's context had the front): the tab we act on is the one in front.
  await page.bringToFront().catch(() => {});
  const drivers: PageDriver[] = [];
  const driverFor = async (p: Page) => {
    const d = await driverWith(context, p, metrics);
    drivers.push(d);
    return d;
  };
  const blocked = await guard(browser, opts.urlPolicy);
  const driver = await driverFor(page);
  return {
    browser,
    context,
    driver,
    attached: true,
    driverFor,
    blocked,
    isConnected: () => browser.isConnected(),
    close: async () => {
      await Promise.all(drivers.map((d) => d.detach()));
    },
  };
}
