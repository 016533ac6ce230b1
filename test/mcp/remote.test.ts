import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type BrowserServer, chromium } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { startAttachedBrowser } from '../helpers/attached.js';
import { frameOf, imagePx, startStdio, structured, text } from '../helpers/mcp-client.js';

// Browsers that live elsewhere: a Playwright browser server (the stand-in for a browser service in a
// container), a user's Chromium over CDP in its own context or in the user's tab, a persistent profile and a
// storage state. Truth: the pages' and the server's own records.

let srv: FixtureServer;
const dirs: string[] = [];
before(async () => {
  srv = await startFixtureServer();
});
after(async () => {
  await srv?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'trueclick-remote-'));
  dirs.push(d);
  return d;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const browserServer = (port: number) =>
  chromium.launchServer({ executablePath: findChromium(), args: CHROMIUM_ARGS, port, wsPath: '/trueclick' });

describe('a Playwright browser server (--browser-endpoint)', () => {
  test('screenshots and clicks hit at DPR 2; the server going away is said, and when it is back the session goes on', async () => {
    const port = await freePort();
    let server: BrowserServer = await browserServer(port);
    const mcp = await startStdio(['--browser-endpoint', server.wsEndpoint(), '--device-scale-factor', '2']);
    try {
      await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'remote' }) });
      const f = await frameOf(mcp);
      assert.equal(f.devicePixelRatio, 2);
      const r = await mcp.call('browser_click', { frame: f.id, ...imagePx(f, { x: 1102, y: 636 }) });
      assert.equal(structured<{ verdict: string }>(r).verdict, 'OK', text(r));
      assert.equal((await srv.waitForHits(1, { run: 'remote', type: 'click' }))[0]?.id, 'approve');

      await server.close();
      const gone = structured<{ verdict: string; error: { code: string } }>(
        await mcp.call('browser_screenshot'),
      );
      assert.deepEqual([gone.verdict, gone.error.code], ['BROWSER_GONE', 'CONNECT_FAILED']);

      server = await browserServer(port);
      const back = await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'remote-back' }) });
      assert.ok(!back.isError, text(back));
      assert.match(structured<{ notice?: string }>(back).notice ?? '', /started a new one/);
      const g = await frameOf(mcp);
      await mcp.call('browser_click', { frame: g.id, ...imagePx(g, { x: 1102, y: 636 }) });
      assert.equal((await srv.waitForHits(1, { run: 'remote-back', type: 'click' }))[0]?.id, 'approve');
    } finally {
      await mcp.close();
      await server.close().catch(() => {});
    }
  });
});

describe('real-library pages through a browser server', () => {
  test('a link inside a cross-site iframe (its own process) and a Shoelace button in a shadow root: each lands, named', async () => {
    const server = await browserServer(await freePort());
    const mcp = await startStdio(['--browser-endpoint', server.wsEndpoint(), '--device-scale-factor', '2']);
    try {
      await mcp.call('browser_navigate', { url: srv.url('/rw/frames', { run: 'remote-frames' }) });
      await new Promise((done) => setTimeout(done, 500));
      let f = await frameOf(mcp);
      // The cross-site frame's "Delete" of TCK-7741, at (1175, 351) 49×21 CSS px at 1280×800.
      type Report = { verdict: string; message: string; landed?: { frame?: string; context?: string } };
      const inFrame = structured<Report>(
        await mcp.call('browser_click', { frame: f.id, ...imagePx(f, { x: 1199, y: 361 }) }),
      );
      assert.equal(inFrame.verdict, 'OK', inFrame.message);
      assert.ok(inFrame.landed?.frame, 'landed names an element inside the iframe');
      const [del] = await srv.waitForActions(1, { run: 'remote-frames' });
      assert.deepEqual(
        [del?.do, del?.id, del?.frame, del?.hostname],
        ['delete', 'TCK-7741', 'cross', 'localhost'],
      );

      await mcp.call('browser_navigate', { url: srv.url('/rw/components', { run: 'remote-sl' }) });
      await new Promise((done) => setTimeout(done, 500));
      f = await frameOf(mcp);
      // TCK-7736's sl-button "Open" (a link inside its shadow root), at (1079, 92.5) 55×30 CSS px.
      const open = structured<Report>(
        await mcp.call('browser_click', { frame: f.id, ...imagePx(f, { x: 1107, y: 107 }) }),
      );
      assert.equal(open.verdict, 'OK', open.message);
      const [opened] = await srv.waitForActions(1, { run: 'remote-sl' });
      assert.deepEqual([opened?.do, opened?.id], ['open', 'TCK-7736']);
    } finally {
      await mcp.close();
      await server.close().catch(() => {});
    }
  });
});

describe('a user’s Chromium over CDP', () => {
  test('--isolated acts in a context of its own; without it, in the user’s tab; neither closes the user’s tab', async () => {
    const chrome = await startAttachedBrowser(['--force-device-scale-factor=1.5']);
    try {
      const mine = await chrome.context.newPage();
      await mine.goto(srv.url('/approve', { run: 'users-tab' }));
      const isolated = await startStdio(['--cdp-endpoint', chrome.endpoint, '--isolated']);
      try {
        await isolated.call('browser_navigate', { url: srv.url('/approve', { run: 'isolated' }) });
        const f = await frameOf(isolated);
        assert.equal(f.devicePixelRatio, 1.5, 'the real scale factor is read, not assumed');
        assert.match(mine.url(), /run=users-tab/, 'the user’s tab is untouched');
      } finally {
        await isolated.close();
      }
      // The user opened another tab after it, then went back to this one: in headless every tab reports
      // itself visible and focused, so only the browser's own order of activity tells which is in front.
      const other = await chrome.context.newPage();
      await other.goto(srv.url('/approve', { run: 'other-tab' }));
      await mine.bringToFront();
      const shared = await startStdio(['--cdp-endpoint', chrome.endpoint]);
      try {
        const f = await frameOf(shared);
        assert.match(f.url ?? '', /run=users-tab/, `it acts on the tab in front, the user’s, not ${f.url}`);
        const r = await shared.call('browser_click', { frame: f.id, ...imagePx(f, { x: 1102, y: 636 }) });
        assert.equal(structured<{ verdict: string }>(r).verdict, 'OK', text(r));
        assert.equal((await srv.waitForHits(1, { run: 'users-tab', type: 'click' }))[0]?.id, 'approve');
        assert.equal(srv.hits({ run: 'other-tab' }).length, 0, 'nothing reached the other tab');
      } finally {
        await shared.close();
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!mine.isClosed(), 'the user’s tab is still open after both sessions ended');
    } finally {
      await chrome.close();
    }
  });
});

describe('logins', () => {
  test('--user-data-dir keeps a login across sessions; --storage-state starts a context logged in', async () => {
    const profile = scratch();
    const first = await startStdio(['--user-data-dir', profile]);
    try {
      await first.call('browser_navigate', {
        url: srv.url('/rw/act', { do: 'login', run: 'profile', setcookie: 'user=bob' }),
      });
    } finally {
      await first.close();
    }
    const second = await startStdio(['--user-data-dir', profile]);
    try {
      await second.call('browser_navigate', { url: srv.url('/rw/act', { do: 'whoami', run: 'profile' }) });
    } finally {
      await second.close();
    }
    const who = srv.actions({ run: 'profile', do: 'whoami' });
    assert.match(who[0]?.cookie ?? '', /user=bob/);

    const state = join(scratch(), 'state.json');
    writeFileSync(
      state,
      JSON.stringify({
        cookies: [
          {
            name: 'user',
            value: 'carol',
            domain: '127.0.0.1',
            path: '/',
            expires: -1,
            httpOnly: false,
            secure: false,
            sameSite: 'Lax',
          },
        ],
        origins: [],
      }),
    );
    const stated = await startStdio(['--storage-state', state]);
    try {
      await stated.call('browser_navigate', { url: srv.url('/rw/act', { do: 'whoami', run: 'state' }) });
    } finally {
      await stated.close();
    }
    assert.match(srv.actions({ run: 'state' })[0]?.cookie ?? '', /user=carol/);
  });
});
