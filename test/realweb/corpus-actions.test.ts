// The corpus pages for the rest of an agent's action surface (fixtures/realweb): drag (SortableJS, native
// HTML5 drag and drop; interact.js, pointer events), select options (native, React controlled, Shoelace),
// file uploads (multipart), the browser's own dialogs, new tabs and popups, and a hover menu (Tippy.js).
// Plain Playwright drives each page; the truth is what the server recorded at /rw/act. Nothing may leave
// 127.0.0.1/localhost.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Dialog, type Page } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Rw = Record<string, (...args: unknown[]) => Promise<unknown>>;

function cmd<T = unknown>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(([n, a]) => (window as unknown as { rw: Rw }).rw[n]?.(...a), [name, args] as [
    string,
    unknown[],
  ]) as Promise<T>;
}

describe('real-web corpus: drag, select, upload, dialogs, tabs, hover', () => {
  let server: FixtureServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const external: string[] = [];
  const errors: string[] = [];
  let n = 0;

  before(async () => {
    server = await startFixtureServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    context.on('request', (r) => {
      const host = new URL(r.url()).hostname;
      if (r.url().startsWith('http') && host !== '127.0.0.1' && host !== 'localhost') external.push(r.url());
    });
    context.on('page', (p) => p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`)));
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(path: string, query: Record<string, string | number> = {}): Promise<string> {
    const run = `act${++n}`;
    await page.goto(server.url(path, { run, ...query }));
    await page.waitForFunction(() => (window as unknown as { rw?: { ready: boolean } }).rw?.ready === true);
    return run;
  }

  /** The one action of this run with this `do`, once the page also showed the answer. */
  async function action(run: string, what: string, id: string | null, target: Page = page) {
    const [a, more] = await server.waitForActions(1, { run, do: what });
    assert.ok(a);
    assert.equal(more, undefined, `one ${what} action`);
    assert.equal(a.id, id);
    assert.equal(a.run, run);
    await target.waitForURL((u) => u.pathname === '/rw/act');
    return a;
  }

  /**
   * A press at `from`, a first move that starts the drag, one move onto `to`, a release. One move, not a
   * sweep: SortableJS ignores dragover for 30 ms after each swap, so a fast many-step sweep ends short.
   */
  async function drag(from: { x: number; y: number }, to: { x: number; y: number }) {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x, from.y + 10);
    await page.mouse.move(to.x, to.y);
    await page.mouse.up();
  }

  test('sortable: a page.mouse drag by the handle reorders (native HTML5 DnD) and is saved as do=reorder', async () => {
    let run = await open('/rw/sortable');
    const ids = Array.from({ length: 10 }, (_, i) => `TCK-${7736 + i}`);
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { rw: { order(): string[] } }).rw.order()),
      ids,
    );
    const handle = await page.locator('#row-TCK-7737 .handle').boundingBox();
    assert.deepEqual(handle, { x: 56, y: 136, width: 32, height: 32 }, 'slot 1 handle as documented');
    // Slot 1's handle centre to the middle of slot 4.
    await drag({ x: 72, y: 152 }, { x: 72, y: 80 + 48 * 4 + 24 });
    const a = await action(run, 'reorder', 'TCK-7737');
    assert.equal(a.method, 'POST');
    assert.deepEqual([a.form.from, a.form.to], ['1', '4']);
    const moved = ['TCK-7736', 'TCK-7738', 'TCK-7739', 'TCK-7740', 'TCK-7737', ...ids.slice(5)];
    assert.equal(a.form.order, moved.join(','));

    // resort() moves the rows: the same drag now grabs the ticket that took slot 1 (reversed order).
    run = await open('/rw/sortable');
    assert.deepEqual(await cmd(page, 'resort'), [...ids].reverse());
    await drag({ x: 72, y: 152 }, { x: 72, y: 80 + 48 * 4 + 24 });
    const b = await action(run, 'reorder', 'TCK-7744');
    assert.deepEqual([b.form.from, b.form.to], ['1', '4']);
  });

  test('dropzone: an interact.js drop (pointer events) records the card and the zone; swapZones moves them', async () => {
    let run = await open('/rw/dropzone');
    const card = await page.locator('#card-TCK-7737').boundingBox();
    assert.deepEqual(card, { x: 60, y: 208, width: 320, height: 64 });
    // Let go between the columns: the card springs back, nothing is saved.
    await drag({ x: 220, y: 240 }, { x: 440, y: 320 });
    await sleep(100);
    assert.deepEqual(await page.locator('#card-TCK-7737').boundingBox(), card, 'the card sprang back');
    await drag({ x: 220, y: 240 }, { x: 1060, y: 320 });
    const a = await action(run, 'drop', 'TCK-7737');
    assert.equal(a.method, 'POST');
    assert.equal(a.form.zone, 'done');
    assert.deepEqual(
      server.actions({ run }).map((x) => x.do),
      ['drop'],
      'the drop between the columns saved nothing',
    );

    run = await open('/rw/dropzone');
    assert.deepEqual(await cmd(page, 'swapZones'), ['done', 'doing']);
    await drag({ x: 220, y: 160 }, { x: 1060, y: 320 });
    const b = await action(run, 'drop', 'TCK-7736');
    assert.equal(b.form.zone, 'doing', 'the zone under the pointer is the one that moved there');
  });

  test('forms: selectOption and setInputFiles, then submit: status, tags and files (multipart) are recorded', async () => {
    let run = await open('/rw/forms');
    assert.deepEqual(await page.locator('#status').boundingBox(), { x: 200, y: 144, width: 400, height: 36 });
    assert.equal(await page.locator('#status option[value=merged]').isDisabled(), true);
    assert.deepEqual(await page.locator('#status').selectOption({ label: 'Waiting on customer' }), [
      'pending',
    ]);
    await page.locator('#tags').selectOption(['vpn', 'urgent']);
    await page.locator('#attachment').setInputFiles({
      name: 'vpn-log.txt',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(1234, 'a'),
    });
    await page.locator('#photos').setInputFiles([
      { name: 'screen-1.png', mimeType: 'image/png', buffer: Buffer.alloc(2048, 1) },
      { name: 'screen-2.png', mimeType: 'image/png', buffer: Buffer.alloc(10, 2) },
    ]);
    await page.locator('#save').click();
    const a = await action(run, 'edit', 'TCK-7741');
    assert.equal(a.method, 'POST');
    assert.equal(a.form.status, 'pending');
    assert.deepEqual(a.formAll.tags, ['vpn', 'urgent']);
    assert.deepEqual(a.files, [
      { field: 'attachment', filename: 'vpn-log.txt', size: 1234, type: 'text/plain' },
      { field: 'photos', filename: 'screen-1.png', size: 2048, type: 'image/png' },
      { field: 'photos', filename: 'screen-2.png', size: 10, type: 'image/png' },
    ]);

    // Nothing chosen: the defaults go, the empty file inputs are not listed.
    run = await open('/rw/forms');
    await page.locator('#save').click();
    const b = await action(run, 'edit', 'TCK-7741');
    assert.deepEqual([b.form.status, b.formAll.tags, b.files], ['open', ['hardware'], []]);

    // Over the 1 MiB multipart cap: refused with 413, nothing recorded.
    run = await open('/rw/forms');
    await page.locator('#attachment').setInputFiles({
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      buffer: Buffer.alloc((1 << 20) + 1),
    });
    const [res] = await Promise.all([page.waitForResponse('**/rw/act'), page.locator('#save').click()]);
    assert.equal(res.status(), 413);
    assert.match(await res.text(), /body too large.*1048576 bytes of multipart/);
    assert.deepEqual(server.actions({ run }), []);
  });

  test('forms: the React controlled select takes selectOption (its Save link carries the value); a bare .value does not', async () => {
    let run = await open('/rw/forms');
    assert.deepEqual(await page.locator('#react-status').boundingBox(), {
      x: 808,
      y: 146,
      width: 240,
      height: 36,
    });
    // A value set without the input/change events React listens to: React's state and the link stay.
    await page.locator('#react-status').evaluate((s: HTMLSelectElement) => {
      s.value = 'closed';
    });
    await sleep(50);
    assert.equal(await page.locator('#react-save').count(), 0);
    assert.equal(await page.locator('#react-value').textContent(), 'open');

    run = await open('/rw/forms');
    await page.locator('#react-status').selectOption({ label: 'Blocked by vendor' });
    assert.equal(await page.locator('#react-value').textContent(), 'blocked');
    await page.locator('#react-save').click();
    const a = await action(run, 'set-status', 'TCK-7742');
    assert.equal(a.query.status, 'blocked');
  });

  test('forms: Shoelace sl-select (no native select) picks an option by clicks; its Save link records it', async () => {
    const run = await open('/rw/forms');
    assert.equal(
      await page.evaluate(() => document.querySelector('#sl-status')?.shadowRoot?.querySelector('select')),
      null,
    );
    assert.equal(await page.locator('#sl-save').isVisible(), false);
    await page.locator('#sl-status').click();
    await page.locator('#sl-status sl-option[value=closed]').click();
    await page.locator('#sl-save').click();
    const a = await action(run, 'set-status', 'TCK-7743');
    assert.equal(a.query.status, 'closed');
  });

  test('dialogs: confirm accept/dismiss, prompt text/cancel and alert each record their own action', async () => {
    const seen: string[] = [];
    const answer = (fn: (d: Dialog) => Promise<void>) => {
      page.once('dialog', (d) => {
        seen.push(`${d.type()}:${d.message()}:${d.defaultValue()}`);
        void fn(d);
      });
    };
    let run = await open('/rw/dialogs');
    assert.deepEqual(await page.locator('#delete').boundingBox(), { x: 552, y: 92, width: 200, height: 32 });
    answer((d) => d.accept());
    await page.locator('#delete').click();
    await action(run, 'delete', 'TCK-7741');

    run = await open('/rw/dialogs');
    answer((d) => d.dismiss());
    await page.locator('#delete').click();
    await action(run, 'kept', 'TCK-7741');

    run = await open('/rw/dialogs');
    answer((d) => d.accept('Export to CSV (all columns)'));
    await page.locator('#rename').click();
    const renamed = await action(run, 'rename', 'TCK-7741');
    assert.equal(renamed.query.title, 'Export to CSV (all columns)');

    run = await open('/rw/dialogs');
    answer((d) => d.dismiss());
    await page.locator('#rename').click();
    const cancelled = await action(run, 'rename', 'TCK-7741');
    assert.deepEqual([cancelled.query.title, cancelled.query.cancelled], [undefined, '1']);

    run = await open('/rw/dialogs');
    answer((d) => d.accept());
    await page.locator('#save').click();
    await action(run, 'after-alert', 'TCK-7741');

    assert.deepEqual(seen, [
      'confirm:Delete TCK-7741?:',
      'confirm:Delete TCK-7741?:',
      'prompt:New title:Export to CSV',
      'prompt:New title:Export to CSV',
      'alert:Saved:',
    ]);
  });

  test('dialogs: after typing, leaving asks with a beforeunload dialog; dismiss stays, accept leaves', async () => {
    const run = await open('/rw/dialogs');
    await page.locator('#edit-title').click();
    await page.keyboard.type(' now');
    assert.equal(
      await page.evaluate(() => (window as unknown as { rw: { dirty(): boolean } }).rw.dirty()),
      true,
    );
    const dialogs: Dialog[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d);
      void (dialogs.length === 1 ? d.dismiss() : d.accept());
    });
    await page.locator('#leave').click({ noWaitAfter: true });
    await sleep(200);
    assert.equal(dialogs.length, 1);
    assert.equal(dialogs[0]?.type(), 'beforeunload');
    assert.match(page.url(), /\/rw\/dialogs\?/, 'dismissed: the page stayed');
    assert.deepEqual(server.actions({ run }), []);
    await page.locator('#leave').click();
    await action(run, 'leave', 'TCK-7741');
    assert.equal(dialogs.length, 2);
    page.removeAllListeners('dialog');
  });

  test('dialogs: a beforeunload handler on a page without any user activation leaves without a dialog', async () => {
    // Playwright's evaluate (and waitForFunction) runs with userGesture: true, which activates the page:
    // this run is watched through CDP with userGesture: false only.
    const run = `act${++n}`;
    await page.goto(server.url('/rw/dialogs', { run, makeDirty: 0 }));
    const cdp = await context.newCDPSession(page);
    const { result } = await cdp.send('Runtime.evaluate', {
      expression:
        'rw.whenReady.then(() => new Promise((r) => { const t = () => (rw.dirty() ? r(navigator.userActivation.hasBeenActive) : setTimeout(t, 20)); t(); }))',
      awaitPromise: true,
      returnByValue: true,
      userGesture: false,
    });
    await cdp.detach();
    assert.equal(result.value, false, 'dirty, and the page never had a user activation');
    const dialogs: string[] = [];
    const onDialog = (d: Dialog) => {
      dialogs.push(d.type());
      void d.accept();
    };
    page.on('dialog', onDialog);
    await page.goto(server.url('/rw/act', { do: 'leave', id: 'TCK-7741', run }));
    page.off('dialog', onDialog);
    await action(run, 'leave', 'TCK-7741');
    assert.deepEqual(dialogs, [], 'Chromium skipped the beforeunload dialog');
  });

  test('tabs: target=_blank (implied noopener), rel=opener and window.open each open a page the server records', async () => {
    const run = await open('/rw/tabs');
    assert.deepEqual(await page.locator('#open-tab').boundingBox(), {
      x: 552,
      y: 92,
      width: 200,
      height: 32,
    });
    const opened: Page[] = [];
    const newPage = async (sel: string) => {
      const [p] = await Promise.all([context.waitForEvent('page'), page.locator(sel).click()]);
      opened.push(p);
      return p;
    };
    try {
      const tab = await newPage('#open-tab');
      await action(run, 'open-tab', 'TCK-7741', tab);
      assert.equal(await tab.evaluate(() => window.opener), null, 'target=_blank implies noopener');

      const lone = await newPage('#open-noopener');
      await action(run, 'open-noopener', 'TCK-7742', lone);
      assert.equal(await lone.evaluate(() => window.opener), null);

      const linked = await newPage('#open-opener');
      await action(run, 'open-opener', 'TCK-7744', linked);
      assert.equal(await linked.evaluate(() => window.opener !== null), true, 'rel=opener keeps the opener');
      assert.equal(await linked.opener(), page);

      const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('#popup').click()]);
      opened.push(popup);
      const p = await action(run, 'popup', 'TCK-7743', popup);
      assert.match(p.referer ?? '', /\/rw\/tabs\?/);
      assert.equal(await popup.evaluate(() => window.name), 'details');
      assert.equal(await popup.opener(), page);
      assert.match(page.url(), /\/rw\/tabs\?/, 'the opener stayed where it was');
      assert.deepEqual(
        server.actions({ run }).map((a) => a.do),
        ['open-tab', 'open-noopener', 'open-opener', 'popup'],
      );
    } finally {
      await Promise.all(opened.map((p) => p.close()));
      await page.bringToFront();
    }
  });

  test('hover: the Tippy menu is not in the document until "More" is hovered; its Archive link records', async () => {
    const run = await open('/rw/hover');
    const more = page.locator('#row-TCK-7741 .more');
    assert.deepEqual(await more.boundingBox(), { x: 1136, y: 328, width: 88, height: 32 });
    assert.equal(await page.locator('.row-menu, [data-tippy-root]').count(), 0, 'no menu before a hover');

    await page.locator('#row-TCK-7738 .more').hover();
    const menu = page.locator('#menu-TCK-7738');
    await menu.waitFor({ state: 'visible' });
    // Leaving button and menu unmounts it again.
    await page.mouse.move(640, 30);
    await menu.waitFor({ state: 'detached' });

    await more.hover();
    await page.locator('#menu-TCK-7741').waitFor({ state: 'visible' });
    assert.deepEqual(await page.locator('#menu-TCK-7741 .archive').boundingBox(), {
      x: 1055,
      y: 139 + 48 * 5,
      width: 160,
      height: 32,
    });
    await page.locator('#menu-TCK-7741 .archive').click();
    await action(run, 'archive', 'TCK-7741');
  });

  test('routes: the new /lib/ folders serve their builds only; nothing left the machine, no page errors', async () => {
    const status = async (path: string) => (await fetch(new URL(path, server.origin))).status;
    for (const ok of [
      '/lib/sortablejs/Sortable.min.js',
      '/lib/interactjs/interact.min.js',
      '/lib/tippy/tippy-bundle.umd.min.js',
      '/lib/popper/popper.min.js',
    ]) {
      assert.equal(await status(ok), 200, ok);
    }
    for (const no of [
      '/lib/sortablejs/package.json',
      '/lib/sortablejs/src/Sortable.js',
      '/lib/sortablejs/modular/sortable.esm.js',
      '/lib/popper/../cjs/popper.js',
      '/lib/tippy/..%2fpackage.json',
    ]) {
      assert.equal(await status(no), 404, no);
    }
    // An urlencoded POST over 64 KiB is refused as well.
    const res = await fetch(new URL('/rw/act', server.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `do=big&id=TCK-7736&run=big&x=${'a'.repeat(1 << 16)}`,
    });
    assert.equal(res.status, 413);
    assert.deepEqual(server.actions({ run: 'big' }), []);
    assert.deepEqual(external, [], 'no request left 127.0.0.1/localhost');
    assert.deepEqual(errors, [], 'no page errors');
  });
});
