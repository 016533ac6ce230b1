// The user's own browser through the extension: a real Chromium with the unpacked extension, the person's
// steps (open trueclick's link, press Share, press Stop) driven as they would do them, a real MCP client on
// `trueclick serve --extension`. What a click did comes from the fixture server's log, never trueclick's word.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { WebSocket } from 'ws';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { extensionId } from '../../src/browser/extension/relay.js';
import { startAttachedBrowser } from '../helpers/attached.js';
import {
  CLI,
  type FrameInfo,
  imagePx,
  type McpHarness,
  startStdio,
  structured,
  text,
} from '../helpers/mcp-client.js';
import { startUserBrowser, type UserBrowser } from '../helpers/user-browser.js';

type Point = { x: number; y: number };

/** The link trueclick's refusal hands the agent to pass on to the user. */
function linkIn(message: string): string {
  const m = /http:\/\/127\.0\.0\.1:\d+\/connect\?token=[\w-]+/.exec(message);
  assert.ok(m, `the answer gives the link to share a tab: ${message}`);
  return m[0];
}

async function centre(page: Page, selector: string): Promise<Point> {
  const b = await page.locator(selector).first().boundingBox();
  assert.ok(b, `${selector} has a box`);
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** Keeps the page's script busy for `ms` from now, so what trueclick asks of it waits that long. */
async function busyFor(page: Page, ms: number): Promise<void> {
  await page.evaluate((n) => {
    setTimeout(() => {
      const t = Date.now();
      while (Date.now() - t < n);
    }, 0);
  }, ms);
}

async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true);
}

function harness() {
  const ctx = {} as {
    srv: FixtureServer;
    user: UserBrowser;
    mcp: McpHarness;
    /** trueclick's first answer, before any tab was shared, and the link it gives. */
    first: { isError: boolean; text: string };
    link: string;
    n: number;
  };
  before(async () => {
    ctx.n = 0;
    ctx.srv = await startFixtureServer();
    ctx.mcp = await startStdio(['--extension']);
    const first = await ctx.mcp.call('browser_screenshot');
    ctx.first = { isError: Boolean(first.isError), text: text(first) };
    ctx.link = linkIn(ctx.first.text);
  });
  after(async () => {
    await ctx.mcp?.close();
    await ctx.user?.close();
    await ctx.srv?.close();
  });
  const shot = async () => {
    const r = await ctx.mcp.call('browser_screenshot');
    assert.ok(!r.isError, text(r));
    return { frame: structured<{ frame: FrameInfo }>(r).frame, said: text(r) };
  };
  const click = async (frame: FrameInfo, css: Point) => {
    const r = await ctx.mcp.call('browser_click', { frame: frame.id, ...imagePx(frame, css) });
    return structured<{ verdict: string; message: string }>(r);
  };
  /** A corpus page in a new run, opened by the person in their browser (a tab of their own). */
  const userOpens = async (name: string) => {
    const run = `${name}-${++ctx.n}`;
    const page = await ctx.user.context.newPage();
    await page.goto(ctx.srv.url(`/rw/${name}`, { run }));
    await ready(page);
    return { run, page };
  };
  return { ctx, shot, click, userOpens };
}

describe('the extension at device scale 1.5: share, click, refuse, stop, close, reload', () => {
  const { ctx, shot, click, userOpens } = harness();
  before(async () => {
    ctx.user = await startUserBrowser({ scale: 1.5 });
  });

  test('before a share the agent is told to ask the user, with the link; shared, a link click hits the server and a re-sort is refused', async () => {
    assert.ok(ctx.first.isError);
    assert.match(ctx.first.text, /No browser tab is shared with trueclick: no tab has been shared/);

    let { run, page } = await userOpens('list');
    assert.match(await ctx.user.share(ctx.link, page), /^Shared: /);
    let { frame } = await shot();
    assert.equal(frame.devicePixelRatio, 1.5, 'the browser’s own scale, no emulation');
    assert.match(frame.url ?? '', /\/rw\/list/);
    const r = await click(frame, await centre(page, '.ticket-row:has-text("TCK-7744") .title'));
    assert.equal(r.verdict, 'OK', r.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['open', 'TCK-7744']);

    run = `list-${++ctx.n}`;
    const nav = await ctx.mcp.call('browser_navigate', { url: ctx.srv.url('/rw/list', { run }) });
    assert.ok(!nav.isError, text(nav));
    await ready(page);
    const at = await centre(page, '.ticket-row:has-text("TCK-7741") .title');
    ({ frame } = await shot());
    await page.evaluate(() => (window as unknown as { rw: { resort(): Promise<void> } }).rw.resort());
    const stale = await click(frame, at);
    assert.equal(stale.verdict, 'STALE_TARGET', stale.message);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(ctx.srv.actions({ run }), [], 'nothing reached the server');
  });

  test('a cross-site iframe and a tab the page opens work through the extension', async () => {
    let { run, page } = await userOpens('frames');
    await ctx.user.share(ctx.link, page);
    let { frame, said } = await shot();
    const inner = page.frameLocator('#frame-cross').locator('#row-TCK-7741 a.delete');
    const b = await inner.boundingBox();
    assert.ok(b);
    const r = await click(frame, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
    assert.equal(r.verdict, 'OK', r.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.id, acts[0]?.frame, acts[0]?.hostname], ['TCK-7741', 'cross', 'localhost']);

    ({ run, page } = await userOpens('tabs'));
    await ctx.user.share(ctx.link, page);
    ({ frame, said } = await shot());
    assert.match(said, /\/rw\/tabs/);
    const opened = await click(frame, await centre(page, '#open-tab'));
    assert.equal(opened.verdict, 'OK', opened.message);
    assert.match(opened.message, /opened a new tab/);
    const tabActs = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([tabActs[0]?.do, tabActs[0]?.id], ['open-tab', 'TCK-7741']);
    // The agent sees the shared tab and the tab it opened; none of the person's other tabs.
    const tabs = structured<{ tabs: Array<{ url: string }> }>(
      await ctx.mcp.call('browser_tabs', { action: 'list' }),
    );
    assert.deepEqual(
      tabs.tabs.map((t) => new URL(t.url).pathname),
      ['/rw/tabs', '/rw/act'],
    );
  });

  test('as on a launched browser: shadow DOM, the browser’s dialogs, the pixel guard on a canvas, a model’s own action', async () => {
    let { run, page } = await userOpens('components');
    await ctx.user.share(ctx.link, page);
    let { frame } = await shot();
    const open = await click(frame, await centre(page, '#row-TCK-7741 sl-button.open'));
    assert.equal(open.verdict, 'OK', open.message);
    assert.deepEqual(
      (await ctx.srv.waitForActions(1, { run })).map((a) => `${a.do} ${a.id}`),
      ['open TCK-7741'],
    );

    ({ run, page } = await userOpens('dialogs'));
    await ctx.user.share(ctx.link, page);
    ({ frame } = await shot());
    const asked = await click(frame, await centre(page, '#delete'));
    assert.match(asked.message, /confirm dialog/i);
    const answered = await ctx.mcp.call('browser_handle_dialog', { accept: true });
    assert.ok(!answered.isError, text(answered));
    assert.deepEqual(
      (await ctx.srv.waitForActions(1, { run })).map((a) => `${a.do} ${a.id}`),
      ['delete TCK-7741'],
    );

    ({ run, page } = await userOpens('canvas-table'));
    await ctx.user.share(ctx.link, page);
    ({ frame } = await shot());
    await page.evaluate(() => (window as unknown as { rw: { resort(): void } }).rw.resort());
    const moved = await click(frame, { x: 1156, y: 144 + 48 * 3 });
    assert.equal(moved.verdict, 'STALE_TARGET', moved.message);
    assert.match(moved.message, /pixels|band/);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(ctx.srv.actions({ run }), []);

    ({ run, page } = await userOpens('list'));
    await ctx.user.share(ctx.link, page);
    ({ frame } = await shot());
    const at = await centre(page, '.ticket-row:has-text("TCK-7741") a.archive');
    // Claude's coordinates are px of the image it was shown (this frame's image).
    const { x, y } = imagePx(frame, at);
    const acted = await ctx.mcp.call('browser_act', {
      frame: frame.id,
      model: 'claude',
      action: {
        type: 'tool_use',
        id: 'toolu_01A',
        name: 'computer',
        input: { action: 'left_click', coordinate: [Math.round(x), Math.round(y)] },
      },
    });
    assert.equal(structured<{ verdict: string }>(acted).verdict, 'OK', text(acted));
    assert.deepEqual(
      (await ctx.srv.waitForActions(1, { run })).map((a) => `${a.do} ${a.id}`),
      ['archive TCK-7741'],
    );
  });

  test('the user stops sharing: the agent hears it and how to share again; shared again, old frames are void', async () => {
    const { page } = await userOpens('list');
    await ctx.user.share(ctx.link, page);
    const { frame } = await shot();
    await ctx.user.stopSharing(page);
    const gone = await ctx.mcp.call('browser_screenshot');
    assert.ok(gone.isError);
    assert.match(text(gone), /the user stopped sharing/);
    assert.equal(linkIn(text(gone)), ctx.link);

    await ctx.user.share(ctx.link, page);
    const again = await shot();
    assert.match(again.said, /shared a tab again/);
    const old = await ctx.mcp.call('browser_click', { frame: frame.id, x: 10, y: 10 });
    assert.match(text(old), /frame/i);
    assert.notEqual(structured<{ verdict?: string }>(old).verdict, 'OK');
  });

  test('the user shares another tab as a screenshot begins: the image is of the tab shared now, and said so', async () => {
    const first = await userOpens('list');
    await ctx.user.share(ctx.link, first.page);
    await shot();
    const next = await userOpens('frames');
    // The first tab's page is busy for a while, so the capture is still waiting on it when the share moves.
    await busyFor(first.page, 3000);
    const pending = ctx.mcp.call('browser_screenshot');
    await new Promise((r) => setTimeout(r, 200));
    await ctx.user.share(ctx.link, next.page);
    const r = await pending;
    assert.ok(!r.isError, text(r));
    assert.match(structured<{ frame: FrameInfo }>(r).frame.url ?? '', /\/rw\/frames/);
    assert.match(text(r), /shared a tab again/);
  });

  test('a click cut short by the user sharing another tab: nothing reaches the server, and the agent is told why', async () => {
    const first = await userOpens('list');
    await ctx.user.share(ctx.link, first.page);
    const { frame } = await shot();
    const at = await centre(first.page, '.ticket-row:has-text("TCK-7744") .title');
    const next = await userOpens('frames');
    await busyFor(first.page, 3000);
    const pending = ctx.mcp.call('browser_click', { frame: frame.id, ...imagePx(frame, at) });
    await new Promise((r) => setTimeout(r, 200));
    await ctx.user.share(ctx.link, next.page);
    const r = await pending;
    assert.ok(r.isError, text(r));
    assert.match(text(r), /shared another tab \(.*\/rw\/frames/);
    assert.match(text(r), /browser_screenshot/);
    await new Promise((r) => setTimeout(r, 3500));
    assert.deepEqual(ctx.srv.actions({ run: first.run }), [], 'nothing reached the server');
  });

  test('the shared tab closed, the extension reloaded: each is said, and nothing is clicked elsewhere', async () => {
    let { page } = await userOpens('list');
    await ctx.user.share(ctx.link, page);
    await shot();
    for (const p of ctx.user.context.pages()) if (p !== page) await p.close();
    await page.close();
    const closed = await ctx.mcp.call('browser_screenshot');
    assert.ok(closed.isError);
    assert.match(text(closed), /the shared tab was closed/);

    ({ page } = await userOpens('list'));
    await ctx.user.share(ctx.link, page);
    await shot();
    await ctx.user.reloadExtension();
    const reloaded = await ctx.mcp.call('browser_screenshot');
    assert.ok(reloaded.isError);
    assert.match(text(reloaded), /extension disconnected/);
    assert.equal(linkIn(text(reloaded)), ctx.link);
    // The reloaded extension shares again with the same link.
    assert.match(await ctx.user.share(ctx.link, page), /^Shared: /);
    assert.match((await shot()).said, /shared a tab again/);
  });

  test('a wrong token, another origin, a guessed path: all refused', async () => {
    const url = new URL(ctx.link);
    const wrong = new URL(ctx.link);
    wrong.searchParams.set('token', 'not-the-token');
    assert.equal((await fetch(wrong)).status, 403);
    assert.equal((await fetch(new URL('/cdp/guess', url))).status, 404);
    const id = extensionId();
    const opens = (path: string, origin?: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(`ws://${url.host}${path}`, origin ? { origin } : {});
        ws.on('open', () => {
          ws.close();
          resolve('open');
        });
        ws.on('unexpected-response', (_req, res) => resolve(String(res.statusCode)));
        ws.on('error', () => resolve('error'));
      });
    const token = url.searchParams.get('token');
    assert.equal(await opens('/extension?token=not-the-token', `chrome-extension://${id}`), '401');
    assert.equal(await opens(`/extension?token=${token}`, 'http://evil.example'), '403');
    assert.equal(
      await opens(`/extension?token=${token}`, 'chrome-extension://abcdefghijklmnopabcdefghijklmnop'),
      '403',
    );
    assert.equal(await opens('/cdp/guess'), '404');

    // The person opens a link from another run: the extension page says it was refused, nothing is shared.
    const { page } = await userOpens('list');
    const connect = await ctx.user.context.newPage();
    // As a link on a web page would open it (the browser refuses to be sent there directly).
    const follow = async (href: string) => {
      await connect.goto(ctx.srv.url('/rw/list'));
      await connect.evaluate((h) => {
        location.href = h;
      }, href);
      await connect.waitForURL(/^chrome-extension:/);
    };
    const page2 = new URL(`chrome-extension://${id}/connect.html`);
    page2.searchParams.set('relay', `ws://${url.host}/extension`);
    page2.searchParams.set('token', 'not-the-token');
    await follow(page2.href);
    await connect.locator('li', { hasText: page.url() }).getByRole('button', { name: 'Share' }).click();
    await connect.locator('#status').filter({ hasText: /\S/ }).waitFor();
    assert.match((await connect.locator('#status').textContent()) ?? '', /^Not shared/);
    const evil = new URL(page2.href);
    evil.searchParams.set('relay', 'ws://evil.example:80/extension');
    await follow(evil.href);
    await connect.locator('li', { hasText: page.url() }).getByRole('button', { name: 'Share' }).click();
    await connect.locator('#status').filter({ hasText: /\S/ }).waitFor();
    assert.match((await connect.locator('#status').textContent()) ?? '', /must be on this machine/);
  });
});

describe('the extension at a real device scale of 1.5 with the profile’s zoom at 110%', () => {
  const { ctx, shot, click, userOpens } = harness();
  before(async () => {
    ctx.user = await startUserBrowser({ scale: 1.5, zoomPercent: 110 });
  });

  test('frames carry devicePixelRatio 1.65; a link click hits; a re-sort is refused', async () => {
    const { run, page } = await userOpens('list');
    assert.ok(
      Math.abs((await page.evaluate(() => devicePixelRatio)) - 1.65) < 0.01,
      'the page is at 1.5 × 110%',
    );
    await ctx.user.share(ctx.link, page);
    let { frame } = await shot();
    assert.ok(Math.abs(frame.devicePixelRatio - 1.65) < 0.01, `frame DPR ${frame.devicePixelRatio}`);
    const r = await click(frame, await centre(page, '.ticket-row:has-text("TCK-7744") .title'));
    assert.equal(r.verdict, 'OK', r.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['open', 'TCK-7744']);

    const again = await userOpens('list');
    await ctx.user.share(ctx.link, again.page);
    const at = await centre(again.page, '.ticket-row:has-text("TCK-7741") .title');
    ({ frame } = await shot());
    await again.page.evaluate(() => (window as unknown as { rw: { resort(): Promise<void> } }).rw.resort());
    const stale = await click(frame, at);
    assert.equal(stale.verdict, 'STALE_TARGET', stale.message);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(ctx.srv.actions({ run: again.run }), []);
  });
});

test('--extension refuses flags that would change the user’s browser or that it cannot enforce', () => {
  const r = spawnSync(
    process.execPath,
    [CLI, 'serve', '--extension', '--device-scale-factor', '2', '--blocked-origins', 'x.example'],
    {
      encoding: 'utf8',
      timeout: 20_000,
    },
  );
  assert.equal(r.status, 2);
  assert.match(r.stderr, /cannot take --device-scale-factor, --blocked-origins/);
});

describe('--auto-connect: the running browser that allows remote debugging', () => {
  test('found by its DevToolsActivePort, the tab in front is clicked; without the file the error says what to enable', async () => {
    const srv = await startFixtureServer();
    const chrome = await startAttachedBrowser(['--force-device-scale-factor=1.5']);
    const mcp = await startStdio(['--auto-connect', '--user-data-dir', chrome.userDataDir]);
    const missing = await startStdio(['--auto-connect', '--user-data-dir', `${chrome.userDataDir}-none`]);
    try {
      const page = chrome.pages()[0] as Page;
      const run = 'auto-1';
      await page.goto(srv.url('/rw/list', { run }));
      await ready(page);
      const r = await mcp.call('browser_screenshot');
      assert.ok(!r.isError, text(r));
      const frame = structured<{ frame: FrameInfo }>(r).frame;
      assert.equal(frame.devicePixelRatio, 1.5);
      const at = await centre(page, '.ticket-row:has-text("TCK-7744") .title');
      const c = await mcp.call('browser_click', { frame: frame.id, ...imagePx(frame, at) });
      assert.equal(structured<{ verdict: string }>(c).verdict, 'OK', text(c));
      const acts = await srv.waitForActions(1, { run });
      assert.deepEqual([acts[0]?.do, acts[0]?.id], ['open', 'TCK-7744']);

      const no = await missing.call('browser_screenshot');
      assert.ok(no.isError);
      assert.match(text(no), /No running Chrome allows remote debugging/);
      assert.match(text(no), /chrome:\/\/inspect\/#remote-debugging/);
    } finally {
      await mcp.close();
      await missing.close();
      await chrome.close();
      await srv.close();
    }
  });
});
