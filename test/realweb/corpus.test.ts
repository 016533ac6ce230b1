// The real-web corpus (fixtures/realweb) in one headless Chromium: every /rw/ page renders its library
// offline, a plain Playwright click on an action is recorded by the server with the right ticket and run,
// and each window.rw command changes what it says it changes. Nothing may leave 127.0.0.1/localhost.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';

const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';

type Rw = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** window.rw.<name>(...args) in the page's main world; resolves when the library rendered the change. */
function cmd<T = unknown>(target: Page | Frame, name: string, ...args: unknown[]): Promise<T> {
  return target.evaluate(([n, a]) => (window as unknown as { rw: Rw }).rw[n]?.(...a), [name, args] as [
    string,
    unknown[],
  ]) as Promise<T>;
}

describe('real-web corpus', () => {
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
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  });

  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Loads a corpus page in a new run and waits for rw.ready; returns the run. */
  async function open(path: string, query: Record<string, string | number> = {}): Promise<string> {
    const run = `rw${++n}`;
    await page.goto(server.url(path, { run, ...query }));
    await page.waitForFunction(() => (window as unknown as { rw?: { ready: boolean } }).rw?.ready === true);
    return run;
  }

  async function oneAction(run: string, expect: { do: string; id?: string | null; page: string }) {
    const [a] = await server.waitForActions(1, { run, do: expect.do });
    assert.ok(a);
    assert.equal(a.id, expect.id ?? null);
    assert.equal(a.page, expect.page);
    assert.equal(a.run, run);
    return a;
  }

  test('grid: AG Grid virtualizes 200 rows; Delete records the row; replaceData, resort, scrollBy', async () => {
    let run = await open('/rw/grid');
    const rows = await page.locator('#grid .ag-row').count();
    assert.ok(rows > 0 && rows < 80, `virtualized: ${rows} row elements for 200 rows`);
    assert.equal(await page.locator('#grid [role=grid]').getAttribute('aria-rowcount'), '201');
    await page.locator('#grid a.rw-delete[href*="id=TCK-7741&"]').click();
    const a = await oneAction(run, { do: 'delete', id: 'TCK-7741', page: 'grid' });
    assert.equal(a.method, 'GET');

    run = await open('/rw/grid');
    const row = await page.locator('#grid .ag-row', { hasText: 'TCK-7741' }).elementHandle();
    assert.ok(row);
    const show = () => row.evaluate((r) => [r.isConnected, r.querySelector('[col-id=id]')?.textContent]);
    await cmd(page, 'replaceData');
    assert.deepEqual(await show(), [true, 'TCK-8741'], 'same row node, new ticket in its slot');
    const box = await page.locator('#grid .ag-row', { hasText: 'TCK-8741' }).boundingBox();
    assert.ok(box);
    const idAt = () =>
      page.evaluate(
        ([x, y]) =>
          document.elementFromPoint(x, y)?.closest('.ag-row')?.querySelector('[col-id=id]')?.textContent,
        [box.x + 70, box.y + box.height / 2] as [number, number],
      );
    await cmd(page, 'resort');
    const after = await idAt();
    assert.ok(after && after !== 'TCK-8741', `after resort the point shows another ticket: ${after}`);
    assert.equal(await cmd(page, 'scrollBy', 400), 400);
    assert.notEqual(await idAt(), after, 'scrolling moved other rows under the point');

    // sortvia=data: the page feeds the sorted data into the same slots, so row nodes stay and change.
    await open('/rw/grid', { sortvia: 'data' });
    const same = await page.locator('#grid .ag-row', { hasText: 'TCK-7741' }).elementHandle();
    assert.ok(same);
    await cmd(page, 'resort');
    const now = await same.evaluate((r) => [r.isConnected, r.querySelector('[col-id=id]')?.textContent]);
    assert.equal(now[0], true);
    assert.notEqual(now[1], 'TCK-7741');
  });

  test('list: React rows; Delete POSTs, the title onClick navigates; index keys reuse nodes', async () => {
    let run = await open('/rw/list');
    await page.locator('.ticket-row', { hasText: 'TCK-7741' }).locator('button.delete').click();
    const a = await oneAction(run, { do: 'delete', id: 'TCK-7741', page: 'list' });
    assert.equal(a.method, 'POST');
    assert.equal(a.form.id, 'TCK-7741');

    run = await open('/rw/list');
    await page.locator('.ticket-row', { hasText: 'TCK-7744' }).locator('.title').click();
    await oneAction(run, { do: 'open', id: 'TCK-7744', page: 'list' });

    await open('/rw/list', { keys: 'index' });
    let row = await page.locator('.ticket-row', { hasText: 'TCK-7741' }).elementHandle();
    assert.ok(row);
    const show = (r: typeof row) =>
      r?.evaluate((e) => [
        e.isConnected,
        e.querySelector('.id')?.textContent,
        e.querySelector('.title')?.textContent,
      ]);
    await cmd(page, 'prepend', 2);
    assert.deepEqual(
      (await show(row))?.slice(0, 2),
      [true, 'TCK-7739'],
      'index keys: the node shows another ticket',
    );
    await cmd(page, 'resort');
    assert.notEqual((await show(row))?.[1], 'TCK-7739');
    const before = await show(row);
    await cmd(page, 'rewrite');
    const rewritten = await show(row);
    assert.deepEqual(rewritten?.slice(0, 2), before?.slice(0, 2), 'rewrite: same node, same ticket');
    assert.notEqual(rewritten?.[2], before?.[2], 'rewrite: new title');

    await open('/rw/list', { keys: 'stable' });
    row = await page.locator('.ticket-row', { hasText: 'TCK-7741' }).elementHandle();
    await cmd(page, 'prepend', 2);
    assert.deepEqual(
      (await show(row))?.slice(0, 2),
      [true, 'TCK-7741'],
      'stable keys: the node follows its ticket',
    );
  });

  test('components: Shoelace button, checkbox and menu record; resort moves rows, relabel changes shadow text', async () => {
    let run = await open('/rw/components');
    assert.equal(await page.locator('#logo svg').count(), 1, 'the sl-icon loaded from /lib/shoelace/assets');
    await page.locator('#row-TCK-7741 sl-button.open').click();
    await oneAction(run, { do: 'open', id: 'TCK-7741', page: 'components' });

    run = await open('/rw/components');
    await page.locator('#row-TCK-7738 sl-checkbox').click();
    const [check] = await server.waitForActions(1, { run, do: 'check' });
    assert.equal(check?.query.checked, '1');
    await page.locator('#row-TCK-7738 sl-dropdown sl-button').click();
    await page.locator('#row-TCK-7738 sl-menu-item[value=delete]').click();
    await oneAction(run, { do: 'delete', id: 'TCK-7738', page: 'components' });

    await open('/rw/components');
    const before = await page.locator('#row-TCK-7741').boundingBox();
    await cmd(page, 'resort');
    const moved = await page.locator('#row-TCK-7741').boundingBox();
    assert.ok(before && moved && moved.y !== before.y, 'the row moved');
    const num = await page.locator('#row-TCK-7741 sl-format-number').elementHandle();
    const text = () =>
      page.evaluate(() =>
        [
          document.querySelector('#row-TCK-7741 sl-format-number')?.shadowRoot?.textContent?.trim(),
          document.querySelector('#row-TCK-7741 sl-button.open')?.textContent,
        ].join('|'),
      );
    const was = await text();
    await cmd(page, 'relabel');
    assert.notEqual(await text(), was);
    assert.equal(await num?.evaluate((e) => e.isConnected), true, 'relabel keeps the elements');
  });

  test('overlays: Bootstrap toast covers Export, hideAll uncovers it; modal Delete records', async () => {
    let run = await open('/rw/overlays');
    const topAt = (sel: string) =>
      page.evaluate((s) => {
        const b = document.querySelector(s)?.getBoundingClientRect();
        return b
          ? document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2)?.closest('[id]')?.id
          : null;
      }, sel);
    assert.equal(await topAt('#export'), 'export');
    await cmd(page, 'showToast');
    assert.equal(await topAt('#export'), 'toast');
    await cmd(page, 'hideAll');
    assert.equal(await topAt('#export'), 'export');
    await page.locator('#export').click();
    await oneAction(run, { do: 'export', page: 'overlays' });

    run = await open('/rw/overlays');
    await cmd(page, 'showModal');
    assert.equal(await topAt('#row-TCK-7736 .delete'), 'confirm', 'the modal covers the rows');
    await page.locator('#modal-delete').click();
    await oneAction(run, { do: 'confirm-delete', id: 'TCK-7741', page: 'overlays' });
  });

  test('frames: the cross-site frame is an OOPIF on localhost; actions record their host', async () => {
    let run = await open('/rw/frames');
    const cross = page.frames().find((f) => new URL(f.url()).hostname === 'localhost');
    assert.ok(cross, `frames: ${page.frames().map((f) => f.url())}`);
    assert.equal(page.frames().length, 3);
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = await cdp.send('Target.getTargets');
    await cdp.detach();
    const oopifs = targetInfos.filter((t) => t.type === 'iframe').map((t) => new URL(t.url).hostname);
    assert.deepEqual(oopifs, ['localhost'], 'only the cross-site frame has its own target (process)');

    const ids = (f: Frame) =>
      f.evaluate(() => Array.from(document.querySelectorAll('.id'), (e) => e.textContent));
    assert.equal((await ids(cross))[0], 'TCK-7736');
    await cmd(page, 'resortInner', 'cross');
    assert.equal((await ids(cross))[0], 'TCK-7745');
    await page.frameLocator('#frame-cross').locator('#row-TCK-7741 .delete').click();
    const a = await oneAction(run, { do: 'delete', id: 'TCK-7741', page: 'frame-inner' });
    assert.equal(a.hostname, 'localhost');
    assert.equal(a.frame, 'cross');

    run = await open('/rw/frames');
    await cmd(page, 'resortInner', 'same');
    const same = page.frames().find((f) => f.url().includes('frame=same'));
    assert.ok(same);
    assert.equal((await ids(same))[0], 'TCK-7745');
    await page.frameLocator('#frame-same').locator('#row-TCK-7740 .delete').click();
    const b = await oneAction(run, { do: 'delete', id: 'TCK-7740', page: 'frame-inner' });
    assert.deepEqual([b.hostname, b.frame], ['127.0.0.1', 'same']);

    run = await open('/rw/frames');
    await page.locator('#top-delete').click();
    await oneAction(run, { do: 'delete', id: 'TCK-7736', page: 'frames' });
  });

  test('scroll, sticky, transform: links in a scroller, under a sticky header, on transformed cards', async () => {
    let run = await open('/rw/scroll');
    const y0 = (await page.locator('#row-TCK-7741').boundingBox())?.y ?? 0;
    assert.equal(await cmd(page, 'scrollBy', 200), 200);
    assert.equal((await page.locator('#row-TCK-7741').boundingBox())?.y, y0 - 200);
    await page.locator('#row-TCK-7760 .delete').click();
    await oneAction(run, { do: 'delete', id: 'TCK-7760', page: 'scroll' });

    run = await open('/rw/sticky');
    assert.ok((await page.evaluate(() => document.documentElement.scrollHeight)) >= 3000);
    await page.mouse.wheel(0, 1200);
    await page.waitForFunction(() => window.scrollY >= 1200);
    const b = await page.locator('#export').boundingBox();
    assert.ok(b && b.y < 64, 'the header stays at the top');
    await page.locator('#export').click();
    await oneAction(run, { do: 'export', page: 'sticky' });

    run = await open('/rw/transform');
    const before = await page.locator('#rotated .delete').boundingBox();
    await page.locator('#rotated .delete').click();
    await oneAction(run, { do: 'delete', id: 'TCK-7741', page: 'transform' });
    run = await open('/rw/transform');
    await page.locator('#scaled .delete').click();
    await oneAction(run, { do: 'delete', id: 'TCK-7742', page: 'transform' });
    await open('/rw/transform');
    await cmd(page, 'turn', 8);
    const turned = await page.locator('#rotated .delete').boundingBox();
    assert.ok(before && turned && Math.abs(turned.y - before.y) > 20, 'turn moved the link');
  });

  test('nav: router links and rw.go are recorded as routes; onClick, form and link navigate', async () => {
    let run = await open('/rw/nav');
    await page.locator('#nav-inbox').click();
    const [route] = await server.waitForActions(1, { run, do: 'route' });
    assert.equal(route?.query.to, '/inbox');
    assert.equal(new URL(page.url()).pathname, '/rw/nav/inbox');
    assert.equal(await cmd(page, 'go', '/settings'), '/rw/nav/settings');
    // The page reports the route from a React effect: under load the report can trail the render.
    const routes = await server.waitForActions(2, { run, do: 'route' });
    assert.equal(routes[1]?.query.to, '/settings');
    await cmd(page, 'go', '/');
    await page.locator('#open-button').click();
    await oneAction(run, { do: 'open', id: 'TCK-7743', page: 'nav' });

    run = await open('/rw/nav');
    await page.locator('#close-submit').click();
    const post = await oneAction(run, { do: 'close', id: 'TCK-7742', page: 'nav' });
    assert.equal(post.method, 'POST');
    run = await open('/rw/nav');
    await page.locator('#archive-link').click();
    await oneAction(run, { do: 'archive', id: 'TCK-7741', page: 'nav' });
  });

  test('chart: a click on a Chart.js bar records its label; resort puts another bar there', async () => {
    type Bar = { label: string; x: number; y: number; width: number; height: number };
    const run = await open('/rw/chart', { animate: 0 });
    const canvas = await page.locator('#chart').boundingBox();
    assert.ok(canvas);
    const bar = (await cmd<Bar[]>(page, 'bars')).find((b) => b.label === 'TCK-7741');
    assert.ok(bar);
    const at = { x: bar.x + bar.width / 2, y: bar.y + bar.height - 4 };
    await cmd(page, 'resort');
    const moved = (await cmd<Bar[]>(page, 'bars')).find((b) => b.x <= at.x && at.x <= b.x + b.width);
    assert.ok(moved && moved.label !== 'TCK-7741', `another bar at the point: ${moved?.label}`);
    await page.locator('#chart').click({ position: { x: at.x - canvas.x, y: at.y - canvas.y } });
    const a = await oneAction(run, { do: 'bar', id: moved.label, page: 'chart' });
    assert.equal(a.query.label, moved.label);
  });

  test('routes: /lib serves whitelisted builds only, /rw/actions lists, nothing left the machine', async () => {
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        const u = new URL(server.origin);
        request({ host: u.hostname, port: u.port, path }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    assert.equal(await get('/lib/react/react.production.min.js'), 200);
    assert.equal(await get('/lib/react/../../package.json'), 404);
    assert.equal(await get('/lib/react/..%2f..%2fpackage.json'), 404);
    assert.equal(await get('/lib/react/%2e%2e/%2e%2e/package.json'), 404);
    assert.equal(await get('/lib/nope/x.js'), 404);
    const res = await fetch(server.url('/rw/actions', { do: 'bar' }));
    assert.ok(((await res.json()) as unknown[]).length >= 1);
    assert.deepEqual(external, [], 'no request left 127.0.0.1/localhost');
    assert.deepEqual(errors, [], 'no page errors');
  });
});
