import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { defaultProfileDirs, findDevToolsEndpoint } from '../../src/browser/plumbing/auto-connect.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { BrowserError } from '../../src/browser/plumbing/errors.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';

// --auto-connect finds the running browser by the DevToolsActivePort file in its user-data folder. Chromium
// started with --remote-debugging-port=0 writes the same file as Chrome 144+ after the user allows remote
// debugging at chrome://inspect, so it stands in for the user's browser. Truth: a page evaluated through
// the endpoint found, and the errors' own words.

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'trueclick-auto-'));
  dirs.push(d);
  return d;
};

let chrome: ChildProcess | undefined;
let profile = '';

before(async () => {
  profile = scratch();
  chrome = spawn(
    findChromium(),
    [
      ...CHROMIUM_ARGS,
      '--headless',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      'about:blank',
    ],
    // Its own process group, so the helpers (zygote, renderers) go with it.
    { stdio: 'ignore', detached: true },
  );
  // Wait for both lines: the file may be seen before Chromium has finished writing it.
  for (let i = 0; i < 150 && !/^\d+\n\/devtools\/browser\//.test(portFileText()); i++)
    await new Promise((r) => setTimeout(r, 100));
  assert.match(portFileText(), /^\d+\n\/devtools\/browser\//, 'Chromium wrote its DevToolsActivePort');
});

after(async () => {
  if (chrome?.pid && chrome.exitCode === null && chrome.signalCode === null) {
    const exited = once(chrome, 'exit');
    process.kill(-chrome.pid, 'SIGKILL');
    await exited;
  }
  // Best effort: a helper process may still be flushing the profile; a leftover temp folder fails nothing.
  for (const d of dirs) {
    try {
      rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {}
  }
});

function portFileText(): string {
  try {
    return readFileSync(join(profile, 'DevToolsActivePort'), 'utf8');
  } catch {
    return '';
  }
}

/** A loopback port nobody listens on: a server's, after it closed. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Asserts the call fails with CONNECT_FAILED and its problem and hint match. */
async function refused(work: Promise<unknown>, problem: RegExp, hint: RegExp) {
  await assert.rejects(work, (err: unknown) => {
    assert.ok(err instanceof BrowserError, String(err));
    assert.equal(err.code, 'CONNECT_FAILED');
    assert.match(err.problem, problem);
    assert.match(err.hint, hint);
    return true;
  });
}

describe('findDevToolsEndpoint: the running browser that allows remote debugging', () => {
  test('the endpoint read from the user-data folder reaches the browser: a page opens and evaluates', async () => {
    const endpoint = await findDevToolsEndpoint(profile);
    const [port, path] = portFileText().split('\n');
    assert.equal(endpoint, `ws://127.0.0.1:${port}${path}`);
    const browser = await chromium.connectOverCDP(endpoint, { timeout: 15_000 });
    try {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const page = await context.newPage();
      await page.goto('data:text/html,<title>auto</title><p>found</p>');
      assert.deepEqual(await page.evaluate(() => [document.title, 6 * 7]), ['auto', 42]);
      await page.close();
    } finally {
      // Over CDP this ends the connection only: the user's browser stays up.
      await browser.close();
    }
    assert.equal(
      await findDevToolsEndpoint(profile),
      endpoint,
      'the browser is still there for the next client',
    );
  });

  test('without a folder: the default folders are searched and the newest port file wins', {
    skip: process.platform !== 'linux' && 'the default folders under $CHROME_CONFIG_HOME are Linux only',
  }, async () => {
    const config = scratch();
    const saved = process.env.CHROME_CONFIG_HOME;
    process.env.CHROME_CONFIG_HOME = config;
    try {
      // An old stable-channel file a crashed Chrome left, and the live browser's file in chromium/.
      mkdirSync(join(config, 'google-chrome'));
      const stale = join(config, 'google-chrome', 'DevToolsActivePort');
      writeFileSync(stale, `${await closedPort()}\n/devtools/browser/old`);
      utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
      mkdirSync(join(config, 'chromium'));
      writeFileSync(join(config, 'chromium', 'DevToolsActivePort'), portFileText());
      assert.equal(await findDevToolsEndpoint(), await findDevToolsEndpoint(profile));
    } finally {
      if (saved === undefined) delete process.env.CHROME_CONFIG_HOME;
      else process.env.CHROME_CONFIG_HOME = saved;
    }
  });

  test('no port file: the folders looked in are named, with how to allow remote debugging', async () => {
    const missing = join(scratch(), 'no-such-profile');
    await refused(
      findDevToolsEndpoint(missing),
      new RegExp(`no DevToolsActivePort file in ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
      /chrome:\/\/inspect\/#remote-debugging.*Allow remote debugging for this browser instance.*--user-data-dir.*--cdp-endpoint/,
    );
    // An empty folder (a profile whose Chrome never allowed it) says the same.
    await refused(findDevToolsEndpoint(scratch()), /no DevToolsActivePort file/, /chrome:\/\/inspect/);
  });

  test('a malformed port file is named as malformed, with what it holds', async () => {
    for (const text of [
      '',
      'not-a-port\n/devtools/browser/x',
      '9222',
      '70000\n/devtools/browser/x',
      '9222\n/json',
    ]) {
      const dir = scratch();
      writeFileSync(join(dir, 'DevToolsActivePort'), text);
      await refused(
        findDevToolsEndpoint(dir),
        new RegExp(
          `DevToolsActivePort is malformed: .*found ${JSON.stringify(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ),
        /chrome:\/\/inspect\/#remote-debugging/,
      );
    }
  });

  test('a stale port file (its browser quit): nothing listens on the port, and it says so', async () => {
    const dir = scratch();
    const port = await closedPort();
    writeFileSync(join(dir, 'DevToolsActivePort'), `${port}\n/devtools/browser/gone\n`);
    await refused(
      findDevToolsEndpoint(dir),
      new RegExp(
        `names port ${port}, but nothing listens there: the browser quit or turned remote debugging off`,
      ),
      /Start Chrome.*chrome:\/\/inspect\/#remote-debugging/,
    );
  });
});

describe('defaultProfileDirs: where each platform keeps its user-data folders', () => {
  test('Linux: ~/.config, else $CHROME_CONFIG_HOME, else $XDG_CONFIG_HOME', () => {
    const names = [
      'google-chrome',
      'google-chrome-beta',
      'google-chrome-unstable',
      'google-chrome-canary',
      'chromium',
    ];
    assert.deepEqual(
      defaultProfileDirs('linux', {}, '/home/ann'),
      names.map((n) => `/home/ann/.config/${n}`),
    );
    assert.deepEqual(
      defaultProfileDirs('linux', { XDG_CONFIG_HOME: '/xdg' }, '/home/ann'),
      names.map((n) => `/xdg/${n}`),
    );
    assert.deepEqual(
      defaultProfileDirs(
        'linux',
        { XDG_CONFIG_HOME: '/xdg', CHROME_CONFIG_HOME: '/snap/common' },
        '/home/ann',
      ),
      names.map((n) => `/snap/common/${n}`),
    );
  });

  test('macOS: ~/Library/Application Support', () => {
    const support = '/Users/ann/Library/Application Support';
    assert.deepEqual(defaultProfileDirs('darwin', { XDG_CONFIG_HOME: '/ignored' }, '/Users/ann'), [
      `${support}/Google/Chrome`,
      `${support}/Google/Chrome Beta`,
      `${support}/Google/Chrome Dev`,
      `${support}/Google/Chrome Canary`,
      `${support}/Chromium`,
    ]);
  });

  test('Windows: %LOCALAPPDATA%, else the home folder’s AppData\\Local, joined with backslashes', () => {
    const under = (local: string) => [
      `${local}\\Google\\Chrome\\User Data`,
      `${local}\\Google\\Chrome Beta\\User Data`,
      `${local}\\Google\\Chrome Dev\\User Data`,
      `${local}\\Google\\Chrome SxS\\User Data`,
      `${local}\\Chromium\\User Data`,
    ];
    assert.deepEqual(
      defaultProfileDirs('win32', { LOCALAPPDATA: 'D:\\Local' }, 'C:\\Users\\ann'),
      under('D:\\Local'),
    );
    assert.deepEqual(
      defaultProfileDirs('win32', {}, 'C:\\Users\\ann'),
      under('C:\\Users\\ann\\AppData\\Local'),
    );
  });
});
