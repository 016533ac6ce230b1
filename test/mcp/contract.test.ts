import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { attachedMcpForFile, pageAt } from '../helpers/attached.js';
import { frameOf, imagePx, startStdio, structured, text } from '../helpers/mcp-client.js';

// One contract for every tool (one wrapper): unknown argument names and schema errors come back as the same
// structured refusal as any other, each error says its kind, every argument has a bound, notices reach the
// agent from any tool, and a call the client cancels stops while the calls behind it run.

const ctx = attachedMcpForFile();

interface Refusal {
  verdict: string;
  message: string;
  notice?: string;
  dispatched?: null;
  error: { code: string; kind: string; message: string; hint: string; field?: string };
}

const refusal = (r: CallToolResult) => {
  assert.equal(r.isError, true, text(r));
  return structured<Refusal>(r);
};

describe('arguments', () => {
  test('unknown names are refused by name, with the names that exist; nothing is clicked', async () => {
    await ctx.mcp.call('browser_navigate', { url: ctx.srv.url('/approve', { run: 'unknown-arg' }) });
    const f = await frameOf(ctx.mcp);
    const p = imagePx(f, { x: 1102, y: 636 });
    const r = await ctx.mcp.call('browser_click', {
      frame: f.id,
      x: p.x,
      y: p.y,
      unit: 'css',
      clickCount: 2,
    });
    const s = refusal(r);
    assert.equal(s.verdict, 'BAD_INPUT');
    assert.equal(s.error.code, 'UNKNOWN_ARGUMENT');
    assert.equal(s.error.kind, 'bad_input');
    assert.match(
      s.message,
      /"unit" \(did you mean "units"\?\), "clickCount" \(did you mean "click_count"\?\)/,
    );
    assert.match(s.error.hint, /click_count.*modifiers/);
    assert.equal(s.dispatched, null);
    assert.match(text(r), /Nothing was clicked/);
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(ctx.srv.hits({ run: 'unknown-arg', type: 'click' }).length, 0);
  });

  test('a schema error is the same structured refusal, naming the field and what it takes', async () => {
    const s = refusal(await ctx.mcp.call('browser_scroll', { dx: 0, dy: 'down' }));
    assert.deepEqual([s.verdict, s.error.code, s.error.field], ['BAD_INPUT', 'BAD_ARGUMENT', 'dy']);
    assert.match(s.error.hint, /CSS px/);
    // JSON null for an optional argument means "not given", as clients send it.
    const shot = await ctx.mcp.call('browser_screenshot', { marks: null });
    assert.ok(!shot.isError, text(shot));
  });

  test('bounds that fit what each argument measures; huge values are never echoed back', async () => {
    await ctx.mcp.call('browser_navigate', { url: ctx.srv.url('/approve', { run: 'bounds' }) });
    const f = await frameOf(ctx.mcp);
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['browser_click', { frame: f.id, x: 10, y: 10, shown_width: 1e308 }, 'shown_width'],
      ['browser_type', { text: 'x'.repeat(10_001) }, 'text'],
      ['browser_navigate', { url: `https://example.com/${'a'.repeat(1_000_000)}` }, 'url'],
      ['browser_press_key', { key: 'K'.repeat(1_000_000) }, 'key'],
      ['browser_scroll', { dx: 0, dy: 1e9 }, 'dy'],
      ['browser_click', { frame: f.id, x: 10, y: 10, click_count: 4 }, 'click_count'],
      ['browser_wait_for', { seconds: 3600 }, 'seconds'],
    ];
    for (const [tool, args, field] of cases) {
      const r = await ctx.mcp.call(tool, args);
      const s = refusal(r);
      assert.deepEqual(
        [s.error.code, s.error.field],
        ['BAD_ARGUMENT', field],
        `${tool}: ${text(r).slice(0, 300)}`,
      );
      assert.ok(text(r).length < 1_000, `${tool} answers briefly (${text(r).length} characters)`);
    }
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(ctx.srv.hits({ run: 'bounds' }).length, 0, 'nothing reached the page');
  });
});

describe('error kinds and notices', () => {
  test('a browser that cannot be reached is BROWSER_GONE, not bad input', async () => {
    const dead = await startStdio(['--cdp-endpoint', 'http://127.0.0.1:9']);
    try {
      const s = refusal(await dead.call('browser_screenshot'));
      assert.deepEqual(
        [s.verdict, s.error.kind, s.error.code],
        ['BROWSER_GONE', 'browser_gone', 'CONNECT_FAILED'],
      );
      assert.doesNotMatch(s.message, /Nothing was clicked/);
    } finally {
      await dead.close();
    }
  });

  test('a page whose script hangs: the tool answers TIMEOUT within its budget and the session goes on', async () => {
    const url = ctx.srv.url('/approve', { run: 'hang' });
    await ctx.mcp.call('browser_navigate', { url });
    const page = await pageAt(ctx.chrome, url);
    // The page's own script spins for 9 s, from its own event loop.
    await page.evaluate(() => {
      setTimeout(() => {
        const end = Date.now() + 9_000;
        while (Date.now() < end);
      }, 0);
    });
    const shot = refusal(await ctx.mcp.call('browser_screenshot'));
    assert.deepEqual([shot.verdict, shot.error.kind], ['TIMEOUT', 'timeout'], shot.message);
    assert.doesNotMatch(shot.message, /Nothing was clicked/);
    await page.waitForFunction(() => true, undefined, { timeout: 15_000 });
    const again = await ctx.mcp.call('browser_navigate', {
      url: ctx.srv.url('/approve', { run: 'after-hang' }),
    });
    assert.ok(!again.isError, text(again));
  });

  test('the notice that the tab closed reaches the agent from whichever tool comes next', async () => {
    for (const [tool, args] of [
      ['browser_wait_for', { seconds: 0 }],
      ['browser_press_key', { key: 'Shift' }],
      ['browser_tabs', { action: 'list' }],
    ] as const) {
      const url = ctx.srv.url('/approve', { run: `notice-${tool}` });
      await ctx.mcp.call('browser_navigate', { url });
      const page = await pageAt(ctx.chrome, url);
      await page.close();
      // The close reaches trueclick's own connection a moment later, as it would from a user's click.
      await new Promise((res) => setTimeout(res, 500));
      const r = await ctx.mcp.call(tool, args);
      assert.match(text(r), /tab trueclick was acting on closed/, `${tool}: ${text(r)}`);
      assert.match(structured<{ notice?: string }>(r).notice ?? '', /closed/);
    }
  });
});

describe('cancellation', () => {
  test('a cancelled wait stops, and the call queued behind it runs', async () => {
    const controller = new AbortController();
    const waiting = ctx.mcp.client.callTool(
      { name: 'browser_wait_for', arguments: { seconds: 30 } },
      {
        signal: controller.signal,
      },
    );
    const queued = ctx.mcp.call('browser_tabs', { action: 'list' });
    setTimeout(() => controller.abort(), 300);
    await assert.rejects(waiting, /abort/i);
    const started = Date.now();
    const r = await queued;
    assert.ok(!r.isError, text(r));
    assert.ok(Date.now() - started < 20_000, 'the queued call did not wait out the 30 s');
  });

  test('cancelled typing stops between chunks: the field holds only part of the text, and no more arrives', async () => {
    const url = ctx.srv.url('/type', { run: 'cancel-type' });
    await ctx.mcp.call('browser_navigate', { url });
    const f = await frameOf(ctx.mcp);
    const p = imagePx(f, { x: 200, y: 228 });
    const controller = new AbortController();
    const typing = ctx.mcp.client.callTool(
      { name: 'browser_type', arguments: { frame: f.id, x: p.x, y: p.y, text: 'abcdefghij'.repeat(1000) } },
      { signal: controller.signal, timeout: 120_000 },
    );
    setTimeout(() => controller.abort(), 1_500);
    await assert.rejects(typing, /abort/i);
    const page = await pageAt(ctx.chrome, url);
    const notes = page.locator('#notes');
    // Let the chunk in flight land (on a loaded machine it took over 1 s: 97 → 100), then the field must stop
    // growing.
    let first = (await notes.inputValue()).length;
    for (let i = 0; i < 20; i++) {
      await new Promise((res) => setTimeout(res, 500));
      const now = (await notes.inputValue()).length;
      if (now === first) break;
      first = now;
    }
    await new Promise((res) => setTimeout(res, 1_000));
    const second = (await notes.inputValue()).length;
    assert.ok(first > 0 && first < 10_000, `typed ${first} of 10000 before the cancel`);
    assert.equal(second, first, 'nothing was typed after the cancel');
  });
});
