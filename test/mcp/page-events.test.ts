import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { attachedMcpForFile, pageAt } from '../helpers/attached.js';
import { type FrameInfo, frameOf, imagePx, structured, text } from '../helpers/mcp-client.js';

// What an action opens beside its own effect (a JavaScript dialog, a new tab or popup), the tab and history
// tools, and waiting: through a real MCP client over stdio, with the server's action log as the truth.

const ctx = attachedMcpForFile();

interface Outcome {
  verdict: string;
  message: string;
  dialog?: { type: string; message: string; defaultValue?: string; url?: string };
  newTab?: { index: number; url: string; followed: boolean };
  error?: { code: string; kind: string };
  url?: string;
  tabs?: Array<{ index: number; url: string; active: boolean }>;
  active?: number;
}

const px = (f: FrameInfo, x: number, y: number) => imagePx(f, { x, y });

/**
 * Waits until the tab's document is at `url`. The test's own connection hears of a navigation after the
 * server's does, and of a page restored from the back/forward cache at times not within seconds (a CI run
 * timed out in waitForURL): the document itself is asked.
 */
async function showing(page: Page, url: RegExp): Promise<void> {
  await page.waitForFunction((src) => new RegExp(src).test(location.href), url.source, {
    polling: 50,
    timeout: 15_000,
  });
}

const call = async (name: string, args: Record<string, unknown> = {}) =>
  structured<Outcome>(await ctx.mcp.call(name, args));

describe('dialogs', () => {
  test('confirm(): the click that opened it reports it, other tools are BLOCKED, accepting deletes', async () => {
    const { run, f } = await ctx.open('/rw/dialogs');
    const r = await ctx.mcp.call('browser_click', {
      frame: f.id,
      ...px(f, 652, 108),
      expect: { text: 'Delete' },
    });
    const s = structured<Outcome>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.deepEqual(s.dialog, { type: 'confirm', message: 'Delete TCK-7741?', url: s.dialog?.url });
    assert.match(s.message, /browser_handle_dialog/);
    const blocked = await call('browser_screenshot');
    assert.equal(blocked.verdict, 'BLOCKED');
    assert.equal(blocked.error?.code, 'DIALOG_OPEN');
    assert.deepEqual(blocked.dialog, s.dialog, 'the refusal names the dialog it waits on');
    assert.equal(ctx.srv.actions({ run }).length, 0, 'nothing happened while the dialog waited');
    const a = await call('browser_handle_dialog', { accept: true });
    assert.equal(a.verdict, 'OK', a.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['delete', 'TCK-7741']);
  });

  test('confirm() dismissed takes the page’s "no" branch; prompt() gets the text; alert() then continues', async () => {
    const { run, f } = await ctx.open('/rw/dialogs');
    assert.equal((await call('browser_click', { frame: f.id, ...px(f, 652, 108) })).dialog?.type, 'confirm');
    await call('browser_handle_dialog', { accept: false });
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.do, 'kept');
    const second = await ctx.open('/rw/dialogs');
    const p = await call('browser_click', { frame: second.f.id, ...px(second.f, 652, 180) });
    assert.deepEqual([p.dialog?.type, p.dialog?.defaultValue], ['prompt', 'Export to CSV']);
    await call('browser_handle_dialog', { accept: true, prompt_text: 'Export to XLSX' });
    const renamed = await ctx.srv.waitForActions(1, { run: second.run });
    assert.deepEqual([renamed[0]?.do, renamed[0]?.query.title], ['rename', 'Export to XLSX']);
    const third = await ctx.open('/rw/dialogs');
    const al = await call('browser_click', { frame: third.f.id, ...px(third.f, 652, 252) });
    assert.equal(al.dialog?.type, 'alert');
    await call('browser_handle_dialog', { accept: true });
    assert.equal((await ctx.srv.waitForActions(1, { run: third.run }))[0]?.do, 'after-alert');
  });

  test('a dialog the hover opens: nothing is pressed and the agent is told; answered, the same button clicks', async () => {
    const { run, f } = await ctx.open('/rw/dialogs');
    // The look armed right behind the move waits in the page the alert froze: it must be let go, not left armed.
    const r = await call('browser_click', { frame: f.id, ...px(f, 652, 396), expect: { text: 'Archive' } });
    assert.equal(r.error?.code, 'DIALOG_OPENED', r.message);
    assert.equal(r.verdict, 'BLOCKED');
    assert.match(r.message, /an alert dialog \("Archived tickets leave the board"\); nothing was pressed/);
    assert.match(r.message, /browser_handle_dialog/);
    assert.deepEqual(r.dialog, {
      type: 'alert',
      message: 'Archived tickets leave the board',
      url: r.dialog?.url,
    });
    assert.match(r.dialog?.url ?? '', /\/rw\/dialogs/);
    const answered = await call('browser_handle_dialog', { accept: true });
    assert.equal(answered.verdict, 'OK', answered.message);
    assert.equal(ctx.srv.actions({ run }).length, 0, 'the press was not sent');
    const g = await frameOf(ctx.mcp);
    const again = await call('browser_click', {
      frame: g.id,
      ...px(g, 652, 396),
      expect: { text: 'Archive' },
    });
    assert.equal(again.verdict, 'OK', again.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts.map((x) => [x.do, x.id]),
      [['archive', 'TCK-7741']],
    );
  });

  test('beforeunload: typing makes the form dirty, leaving asks; "stay" keeps the page, "leave" goes', async () => {
    const { run, f } = await ctx.open('/rw/dialogs');
    const typed = await call('browser_type', { frame: f.id, ...px(f, 296, 324), text: 'draft' });
    assert.equal(typed.verdict, 'OK', typed.message);
    const nav = await call('browser_navigate', { url: ctx.srv.url('/rw/act', { do: 'leave-by-url', run }) });
    assert.equal(nav.dialog?.type, 'beforeunload', nav.message);
    await call('browser_handle_dialog', { accept: false });
    const g = await frameOf(ctx.mcp);
    assert.match(g.url ?? '', /\/rw\/dialogs/);
    const leave = await call('browser_click', { frame: g.id, ...px(g, 828, 324), expect: { role: 'link' } });
    assert.equal(leave.dialog?.type, 'beforeunload', leave.message);
    const answered = await call('browser_handle_dialog', { accept: true });
    assert.match(answered.url ?? '', /\/rw\/act/, answered.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts.map((x) => x.do),
      ['leave'],
    );
  });

  test('a dialog the person answers in their own browser is no longer reported: the tools act again', async () => {
    const { run, f, page } = await ctx.open('/rw/dialogs');
    // The person answers it themselves, through a client of their own (DevTools, another tool).
    const own = await page.context().newCDPSession(page);
    await own.send('Page.enable');
    const s = await call('browser_click', { frame: f.id, ...px(f, 652, 108), expect: { text: 'Delete' } });
    assert.equal(s.dialog?.type, 'confirm', s.message);
    await own.send('Page.handleJavaScriptDialog', { accept: true });
    await own.detach();
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['delete', 'TCK-7741']);
    const shot = await ctx.mcp.call('browser_screenshot');
    assert.notEqual(structured<Outcome>(shot).error?.code, 'DIALOG_OPEN', text(shot));
    assert.equal(shot.isError, undefined, text(shot));
    const none = await call('browser_handle_dialog', { accept: true });
    assert.equal(none.error?.code, 'NO_DIALOG', none.message);
  });

  test('browser_handle_dialog with no dialog open says so', async () => {
    const r = await ctx.mcp.call('browser_handle_dialog', { accept: true });
    assert.equal(r.isError, true);
    assert.equal(structured<Outcome>(r).error?.code, 'NO_DIALOG');
  });
});

describe('tabs and history', () => {
  test('a target=_blank link and a window.open popup each open a tab that is followed and said so', async () => {
    const { run, f } = await ctx.open('/rw/tabs');
    const r = await call('browser_click', { frame: f.id, ...px(f, 652, 108) });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.newTab?.followed, true);
    assert.match(r.newTab?.url ?? '', /do=open-tab/);
    assert.match(r.message, /new tab/);
    assert.doesNotMatch(r.message, /Nothing on the page changed/, 'the tab it opened is what it did');
    const shot = await frameOf(ctx.mcp);
    assert.match(shot.url ?? '', /do=open-tab/, 'the next screenshot shows the new tab');
    const list = await call('browser_tabs', { action: 'list' });
    assert.equal(list.tabs?.length, 2);
    assert.equal(list.active, 1);
    await call('browser_tabs', { action: 'select', index: 0 });
    const back = await frameOf(ctx.mcp);
    const popup = await call('browser_click', { frame: back.id, ...px(back, 652, 324) });
    assert.match(popup.newTab?.url ?? '', /do=popup/, popup.message);
    const acts = await ctx.srv.waitForActions(2, { run });
    assert.deepEqual(acts.map((a) => a.do).sort(), ['open-tab', 'popup']);
    // A frame of another tab is refused by name.
    const stale = await call('browser_click', { frame: f.id, ...px(f, 652, 108) });
    assert.equal(stale.error?.code, 'FRAME_OTHER_TAB');
    const closed = await call('browser_tabs', { action: 'close' });
    assert.equal(closed.tabs?.length, 2);
    await call('browser_tabs', { action: 'close', index: 1 });
    assert.equal((await call('browser_tabs', { action: 'list' })).tabs?.length, 1);
  });

  test('a Ctrl-click on a plain link opens it in a new tab, which is followed; the list stays in the first', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const link = page.locator('.ticket-row', { hasText: 'TCK-7741' }).locator('a.archive');
    const b = await link.boundingBox();
    assert.ok(b);
    const r = await call('browser_click', {
      frame: f.id,
      ...px(f, b.x + b.width / 2, b.y + b.height / 2),
      modifiers: ['Control'],
    });
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.newTab?.url ?? '', /do=archive/, r.message);
    assert.match(page.url(), /\/rw\/list/, 'the list itself did not navigate');
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['archive', 'TCK-7741']);
    await call('browser_tabs', { action: 'close' });
  });

  test('back, forward and reload move the tab; frames from before are void', async () => {
    const a = ctx.srv.url('/nav-a', { run: 'hist' });
    const b = ctx.srv.url('/nav-b', { run: 'hist' });
    await call('browser_navigate', { url: a });
    const page = await pageAt(ctx.chrome, a);
    await call('browser_navigate', { url: b });
    const old = await frameOf(ctx.mcp);
    const back = await call('browser_navigate', { go: 'back' });
    assert.match(back.url ?? '', /\/nav-a/, back.message);
    await showing(page, /\/nav-a/);
    const fwd = await call('browser_navigate', { go: 'forward' });
    assert.match(fwd.url ?? '', /\/nav-b/, fwd.message);
    await showing(page, /\/nav-b/);
    // A page restored from the back/forward cache can swap its execution context just after it shows: read
    // the document's start time once the context holds still.
    const timeOrigin = async () => {
      for (let i = 0; ; i++) {
        try {
          return await page.evaluate(() => performance.timeOrigin);
        } catch (err) {
          if (i >= 5 || !/Execution context was destroyed/.test(String(err))) throw err;
          await page.waitForLoadState('load');
        }
      }
    };
    const before = await timeOrigin();
    const reload = await call('browser_navigate', { go: 'reload' });
    assert.match(reload.url ?? '', /\/nav-b/);
    assert.notEqual(await timeOrigin(), before, 'a new document was loaded');
    const r = await call('browser_click', { frame: old.id, ...px(old, 140, 140) });
    assert.equal(r.error?.code, 'FRAME_OUTDATED');
    const none = await call('browser_navigate', { go: 'forward' });
    assert.equal((none as Outcome & { noHistory?: boolean }).noHistory, true, none.message);
  });
});

describe('wait for', () => {
  test('text that a Bootstrap toast shows later, and text that goes when it hides', async () => {
    const { page } = await ctx.open('/rw/overlays');
    const rw = (name: string) =>
      page.evaluate(
        (n) => (window as unknown as { rw: Record<string, () => Promise<unknown>> }).rw[n]?.(),
        name,
      );
    assert.equal(await page.locator('.toast.show').count(), 0);
    // The page shows the toast 600 ms into the wait, and hides it 600 ms into the next one.
    setTimeout(() => void rw('showToast'), 600);
    const appear = await call('browser_wait_for', { text: 'was reassigned', timeout: 10 });
    assert.equal((appear as Outcome & { met: boolean }).met, true, appear.message);
    assert.equal(await page.locator('.toast.show').count(), 1, 'the page shows it');
    setTimeout(() => void rw('hideAll'), 600);
    const gone = await call('browser_wait_for', { text_gone: 'was reassigned', timeout: 10 });
    assert.equal((gone as Outcome & { met: boolean }).met, true, gone.message);
    const never = await call('browser_wait_for', { text: 'no such text anywhere', timeout: 0.5 });
    assert.equal((never as Outcome & { met: boolean }).met, false);
  });
});
