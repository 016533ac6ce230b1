import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { type Browser, chromium, type Page } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { type AttachedBrowser, pageAt, startAttachedBrowser } from '../helpers/attached.js';
import {
  connectHttp,
  ERA,
  frameOf,
  type HttpServerHandle,
  imagePx,
  type McpHarness,
  startHttpServer,
  startStdio,
  structured,
  text,
} from '../helpers/mcp-client.js';

// The local approval page (`serve --approve destructive`), for clients that cannot show the person a form:
// one with no elicitation (NEEDS_APPROVAL with the link; the agent's retry waits for the person) and one with
// URL-mode elicitation only. The person is a Chromium of their own, apart from the one trueclick drives, that
// opens the link and presses Approve or Deny. What was pressed is read from the fixture server's /rw/act log.

let srv: FixtureServer;
let chrome: AttachedBrowser;
let person: Browser;
let bare: McpHarness;
let urlOnly: McpHarness;
let n = 0;

const serveArgs = () => [
  '--cdp-endpoint',
  chrome.endpoint,
  '--device-scale-factor',
  '2',
  '--approve',
  'destructive',
];

before(async () => {
  srv = await startFixtureServer();
  chrome = await startAttachedBrowser();
  person = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  bare = await startStdio([...serveArgs(), '--approve-timeout', '20'], ERA, {});
  urlOnly = await startStdio(serveArgs(), ERA, { elicitation: { url: {} } });
});
after(async () => {
  await bare?.close();
  await urlOnly?.close();
  await person?.close();
  await chrome?.close();
  await srv?.close();
});

async function aim(mcp: McpHarness, ticket: string, selector = 'button.delete') {
  const run = `approval-page-${++n}`;
  const url = srv.url('/rw/list', { run });
  const nav = await mcp.call('browser_navigate', { url });
  assert.ok(!nav.isError, text(nav));
  const page = await pageAt(chrome, url);
  await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true);
  const f = await frameOf(mcp);
  const b = await page.locator(`.ticket-row:has-text("${ticket}") ${selector}`).first().boundingBox();
  assert.ok(b, selector);
  return {
    run,
    page,
    f,
    args: { frame: f.id, ...imagePx(f, { x: b.x + b.width / 2, y: b.y + b.height / 2 }) },
  };
}

const resort = (page: Page) =>
  page.evaluate(() => (window as unknown as { rw: { resort(): void } }).rw.resort());
const verdictOf = (r: CallToolResult) => structured<{ verdict: string }>(r).verdict;
const codeOf = (r: CallToolResult) => structured<{ error?: { code: string } }>(r).error?.code;
const linkOf = (r: CallToolResult) => structured<{ approval: { url: string } }>(r).approval.url;
const settle = () => new Promise((r) => setTimeout(r, 500));

/** The agent's retry, which waits for the person: with a progress token, so the wait is seen to move. */
function retry(mcp: McpHarness, args: Record<string, unknown>) {
  const progress: string[] = [];
  const call = mcp.client
    .callTool(
      { name: 'browser_click', arguments: args },
      {
        timeout: 60_000,
        resetTimeoutOnProgress: true,
        onprogress: (p) => progress.push(p.message ?? ''),
      },
    )
    .then((r) => ({ r: r as CallToolResult, progress }));
  return Object.assign(call, { progress });
}

/** Until the retry says it waits for the person: a person quicker than the retry's own check answers first. */
async function untilWaiting(progress: string[]): Promise<void> {
  for (let i = 0; i < 400 && !progress.some((m) => m.includes("waiting for the person's answer")); i++)
    await new Promise((r) => setTimeout(r, 50));
}

/** The person opens the link in their own browser, looks, and answers. */
async function answer(link: string, choice: 'approve' | 'deny', look?: (p: Page) => Promise<void>) {
  const p = await person.newPage();
  try {
    await p.goto(link);
    await look?.(p);
    await p.click(`#${choice}`);
    await p.waitForSelector('#answered');
    return (await p.textContent('#answered')) ?? '';
  } finally {
    await p.close();
  }
}

describe('the approval page', () => {
  test('no elicitation: NEEDS_APPROVAL with the link; the page shows the row then and now; the retry waits for Approve and deletes once', async () => {
    const { run, args } = await aim(bare, 'TCK-7741');
    const first = await bare.call('browser_click', args);
    assert.equal(verdictOf(first), 'BLOCKED', text(first));
    assert.equal(codeOf(first), 'NEEDS_APPROVAL');
    const link = linkOf(first);
    assert.match(link, /^http:\/\/127\.0\.0\.1:\d+\/trueclick\/approve\/[\w-]{32}$/);
    assert.match(text(first), /make the same call again: it waits up to 20 s/);
    assert.ok(bare.stderr().includes(link), 'the link is on stderr');
    await settle();
    assert.deepEqual(srv.actions({ run }), [], 'nothing pressed before the yes');

    const waiting = retry(bare, args);
    await untilWaiting(waiting.progress);
    const said = await answer(link, 'approve', async (p) => {
      assert.match(
        (await p.textContent('#sentence')) ?? '',
        /click "Delete" in record ".*TCK-7741.*" \(frame f\d+/,
      );
      for (const id of ['then', 'now']) {
        await p.waitForFunction((i) => (document.getElementById(i) as HTMLImageElement).naturalWidth > 0, id);
      }
    });
    assert.match(said, /You approved this press/);
    const { r, progress } = await waiting;
    assert.equal(verdictOf(r), 'OK', text(r));
    const a = structured<{ approval: { approved: boolean; route: string; yesToPressMs: number } }>(
      r,
    ).approval;
    assert.ok(a.approved && a.route === 'approval page' && a.yesToPressMs >= 0, JSON.stringify(a));
    assert.ok(
      progress.some((m) => m.includes("waiting for the person's answer")),
      progress.join(' | '),
    );
    const done = await srv.waitForActions(1, { run });
    assert.deepEqual(
      done.map((x) => [x.method, x.do, x.id]),
      [['POST', 'delete', 'TCK-7741']],
    );
    // The link answered once: it cannot be answered again.
    const p = await person.newPage();
    const again = await p.request.post(link, {
      form: { answer: 'approve' },
      headers: { origin: new URL(link).origin },
    });
    assert.equal(again.status(), 409);
    await p.close();
  });

  test('no elicitation: the rows re-sort while the person looks; Approve presses nothing (STALE_TARGET)', async () => {
    const { run, page, args } = await aim(bare, 'TCK-7742');
    const link = linkOf(await bare.call('browser_click', args));
    const waiting = retry(bare, args);
    await answer(link, 'approve', () => resort(page));
    const { r } = await waiting;
    assert.equal(verdictOf(r), 'STALE_TARGET', text(r));
    assert.match(
      text(r),
      /Approved \d+ (ms|s) after frame f\d+, but the page is not what the person was shown/,
    );
    await settle();
    assert.deepEqual(srv.actions({ run }), []);
  });

  test('no elicitation: Deny is DECLINED, nothing deleted', async () => {
    const { run, args } = await aim(bare, 'TCK-7743');
    const link = linkOf(await bare.call('browser_click', args));
    const said = await answer(link, 'deny');
    assert.match(said, /You denied this press/);
    const { r } = await retry(bare, args);
    assert.equal(verdictOf(r), 'DECLINED', text(r));
    await settle();
    assert.deepEqual(srv.actions({ run }), []);
  });

  test("the agent's own browser cannot reach the page: navigating there, or a page posting to it, is refused", async () => {
    const { run, args } = await aim(bare, 'TCK-7744');
    const link = linkOf(await bare.call('browser_click', args));
    for (const url of [link, link.replace('127.0.0.1', 'localhost')]) {
      const nav = await bare.call('browser_navigate', { url });
      assert.equal(codeOf(nav), 'URL_NOT_ALLOWED', text(nav));
      assert.match(text(nav), /approval page/);
    }
    // A page in the driven browser that tries to answer for the person, as an injected script would: a
    // no-cors fetch would reach the server (and be answered opaquely) if the browser let it out at all.
    const page = chrome.pages().find((p) => p.url().includes(run)) as Page;
    const posted = await page.evaluate(async (u) => {
      try {
        const r = await fetch(u, {
          method: 'POST',
          mode: 'no-cors',
          body: new URLSearchParams({ answer: 'approve' }),
        });
        return `sent (${r.type})`;
      } catch (err) {
        return `failed: ${(err as Error).message}`;
      }
    }, link);
    assert.match(posted, /^failed/, posted);
    // And the page itself takes an answer only from its own form: another origin's post is refused.
    const forged = await person.newPage();
    const res = await forged.request.post(link, {
      form: { answer: 'approve' },
      headers: { origin: srv.url('/').replace(/\/$/, '') },
    });
    assert.equal(res.status(), 403);
    await forged.close();
    // Still unanswered: a person's Deny is taken, and nothing was deleted.
    assert.match(await answer(link, 'deny'), /You denied/);
    assert.equal(verdictOf((await retry(bare, args)).r), 'DECLINED');
    await settle();
    assert.deepEqual(srv.actions({ run }), []);
  });

  test('URL-mode elicitation: the client shows the link; Approve on the page deletes once', async () => {
    const seen: Array<{ mode?: string; url?: string; message: string }> = [];
    urlOnly.client.setRequestHandler('elicitation/create', async (req) => {
      const params = req.params as { mode?: string; url?: string; message: string };
      seen.push(params);
      // The person opens the link a moment later, while the call waits.
      if (params.url) void answer(params.url, 'approve');
      return { action: 'accept' };
    });
    const { run, args } = await aim(urlOnly, 'TCK-7745');
    const r = (await urlOnly.client.callTool(
      { name: 'browser_click', arguments: args },
      { timeout: 60_000 },
    )) as CallToolResult;
    assert.equal(verdictOf(r), 'OK', text(r));
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.mode, 'url');
    assert.match(seen[0]?.url ?? '', /\/trueclick\/approve\//);
    assert.match(seen[0]?.message ?? '', /click "Delete" in record ".*TCK-7745/);
    const done = await srv.waitForActions(1, { run });
    assert.deepEqual(
      done.map((x) => [x.do, x.id]),
      [['delete', 'TCK-7745']],
    );
  });
});

describe('the approval page over HTTP', () => {
  let server: HttpServerHandle;
  let mcp: McpHarness;
  before(async () => {
    server = await startHttpServer(serveArgs());
    mcp = await connectHttp(server.endpoint, ERA);
  });
  after(async () => {
    await mcp?.close();
    await server?.stop();
  });

  test('NEEDS_APPROVAL, the person approves, the retry deletes the shown ticket once', async () => {
    const { run, args } = await aim(mcp, 'TCK-7746');
    const first = await mcp.call('browser_click', args);
    assert.equal(codeOf(first), 'NEEDS_APPROVAL', text(first));
    const waiting = mcp.call('browser_click', args);
    await answer(linkOf(first), 'approve');
    const r = await waiting;
    assert.equal(verdictOf(r), 'OK', text(r));
    const done = await srv.waitForActions(1, { run });
    assert.deepEqual(
      done.map((x) => [x.do, x.id]),
      [['delete', 'TCK-7746']],
    );
  });
});
