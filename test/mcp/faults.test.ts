import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { attachedMcpForFile, pageAt } from '../helpers/attached.js';
import { frameOf, imagePx, structured, text } from '../helpers/mcp-client.js';

// Faults caused for real: a page stuck in an endless script, a renderer that dies. The tool answers within
// its budget, the tab is replaced, the agent is told, and the session goes on.

const ctx = attachedMcpForFile();

interface Answer {
  verdict: string;
  message: string;
  notice?: string;
  url?: string;
  title?: string;
  stillLoading?: { readyState: string; waitedMs: number };
  error?: { kind: string; code: string };
}

describe('faults', () => {
  test('a page stuck in while(true): TIMEOUT within the budget, then the tab is replaced and navigating works', async () => {
    const url = ctx.srv.url('/approve', { run: 'hang' });
    await ctx.mcp.call('browser_navigate', { url });
    const page = await pageAt(ctx.chrome, url);
    await page.evaluate(() => {
      setTimeout(() => {
        for (;;);
      }, 0);
    });
    const shot = structured<Answer>(await ctx.mcp.call('browser_screenshot'));
    assert.deepEqual([shot.verdict, shot.error?.kind], ['TIMEOUT', 'timeout'], shot.message);
    const next = ctx.srv.url('/approve', { run: 'after-hang' });
    const nav = await ctx.mcp.call('browser_navigate', { url: next });
    const s = structured<Answer>(nav);
    assert.equal(s.verdict, 'OK', text(nav));
    assert.match(s.notice ?? '', /stopped answering/);
    const f = await frameOf(ctx.mcp);
    const c = await ctx.mcp.call('browser_click', { frame: f.id, ...imagePx(f, { x: 1102, y: 636 }) });
    assert.equal(structured<Answer>(c).verdict, 'OK', text(c));
    assert.equal((await ctx.srv.waitForHits(1, { run: 'after-hang', type: 'click' }))[0]?.id, 'approve');
    const tabs = structured<{ tabs: unknown[] }>(await ctx.mcp.call('browser_tabs', { action: 'list' })).tabs;
    assert.equal(tabs.length, 1, 'the stuck tab is gone');
  });

  test('a renderer that dies: the next call opens the page again in a fresh tab and says so', async () => {
    const url = ctx.srv.url('/approve', { run: 'crash' });
    await ctx.mcp.call('browser_navigate', { url });
    const old = await frameOf(ctx.mcp);
    const page = await pageAt(ctx.chrome, url);
    const cdp = await page.context().newCDPSession(page);
    void cdp.send('Page.crash').catch(() => {});
    await new Promise((r) => setTimeout(r, 500));
    const shot = await ctx.mcp.call('browser_screenshot');
    assert.ok(!shot.isError, text(shot));
    assert.match(structured<Answer>(shot).notice ?? '', /crashed.*opened .*run=crash again/);
    const stale = structured<{ error: { code: string } }>(
      await ctx.mcp.call('browser_click', { frame: old.id, ...imagePx(old, { x: 1102, y: 636 }) }),
    );
    assert.equal(stale.error.code, 'FRAME_VOID');
    const f = await frameOf(ctx.mcp);
    const c = await ctx.mcp.call('browser_click', { frame: f.id, ...imagePx(f, { x: 1102, y: 636 }) });
    assert.equal(structured<Answer>(c).verdict, 'OK', text(c));
    assert.equal((await ctx.srv.waitForHits(1, { run: 'crash', type: 'click' }))[0]?.id, 'approve');
  });

  test('a page that never finishes loading: navigate answers at its timeout with what is there; a page that never arrives is a TIMEOUT, and the session goes on', async () => {
    const slow = ctx.srv.url('/never-loads');
    const t0 = Date.now();
    const nav = await ctx.mcp.call('browser_navigate', { url: slow, timeout: 2 });
    const s = structured<Answer>(nav);
    assert.equal(s.verdict, 'OK', text(nav));
    assert.equal(s.url, slow);
    assert.equal(s.title, 'Never loads');
    assert.deepEqual(s.stillLoading, { readyState: 'interactive', waitedMs: 2000 });
    assert.match(s.message, /still loading after 2 s/);
    assert.ok(Date.now() - t0 < 15_000, 'it answered at its timeout');
    const f = await frameOf(ctx.mcp);
    assert.equal(f.url, slow, 'what has loaded can be screenshotted');
    const never = structured<Answer>(
      await ctx.mcp.call('browser_navigate', { url: ctx.srv.url('/__never'), timeout: 2 }),
    );
    assert.deepEqual([never.verdict, never.error?.kind], ['TIMEOUT', 'timeout'], never.message);
    const next = ctx.srv.url('/approve', { run: 'after-never' });
    const back = await ctx.mcp.call('browser_navigate', { url: next });
    assert.equal(structured<Answer>(back).verdict, 'OK', text(back));
    const g = await frameOf(ctx.mcp);
    const c = await ctx.mcp.call('browser_click', { frame: g.id, ...imagePx(g, { x: 1102, y: 636 }) });
    assert.equal(structured<Answer>(c).verdict, 'OK', text(c));
    assert.equal((await ctx.srv.waitForHits(1, { run: 'after-never', type: 'click' }))[0]?.id, 'approve');
  });
});
