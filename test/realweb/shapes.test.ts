// Shapes real apps have that the rest of the corpus did not: a picture that arrives in a still row, a frame
// inside a cross-site frame that comes back to the top's site, a widget whose hit area is a child of its
// control (noUiSlider), a section made inert while it saves, the Popover API and invoker commands, and
// Apache ECharts charts that live (SVG and canvas). Each both ways: the still or living page is clicked and
// the server records it; the moved page is refused and the server records nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { assertRefused, cmd, corpusForFile, type Point } from './harness.js';

const ctx = corpusForFile();
const think = (ms = 600) => new Promise((r) => setTimeout(r, ms));

async function acted(run: string, n = 1): Promise<Array<[string | null, string | null]>> {
  return (await ctx.srv.waitForActions(n, { run })).map((a) => [a.do, a.id]);
}

describe('a picture that arrives in a still row (the app sets src when it loaded)', () => {
  test('the avatar arrives after the screenshot: Open is OK and says so; the server opens that ticket', async () => {
    const { run, page } = await ctx.rw.open('inbox', { arrive: 'manual' });
    const row = page.locator('.inbox-row').first();
    const id = (await row.locator('.id').textContent()) ?? '';
    const open = await ctx.rw.centre(row.locator('a.open'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'arrive');
    const r = await ctx.rw.click(shot, open);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.message, /a picture arrived/);
    assert.deepEqual(await acted(run), [['open', id]]);
  });

  test('the rows re-sorted (pictures and ids with them): refused, nothing opened', async () => {
    const { run, page } = await ctx.rw.open('inbox', { arrive: 'manual' });
    const row = page.locator('.inbox-row').first();
    const id = (await row.locator('.id').textContent()) ?? '';
    const open = await ctx.rw.centre(row.locator('a.open'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'arrive');
    await cmd(page, 'resort');
    const r = await ctx.rw.click(shot, open);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.message, new RegExp(id));
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('a frame inside a cross-site frame that comes back to the top’s site (127.0.0.1 → localhost → 127.0.0.1)', () => {
  const list = (page: Page) => page.frames().find((f) => f.url().includes('frame=back')) as Frame;
  const open = (page: Page) => ctx.rw.centre(list(page).locator('#row-TCK-7741 a.open'));

  test('a still row: Open is OK, names the row inside, and the server records it from that frame', async () => {
    const { run, page } = await ctx.rw.open('nest', { back: 1 });
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await open(page), { text: 'Open', context: 'TCK-7741' });
    assert.equal(r.verdict, 'OK', r.message);
    assert.ok(r.landed?.frame, 'landed names an element inside the frame');
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id, acts[0]?.frame], ['open', 'TCK-7741', 'back']);
    assert.equal(acts[0]?.hostname, '127.0.0.1');
  });

  test('re-sorted inside after the screenshot: STALE_TARGET, nothing recorded', async () => {
    const { run, page } = await ctx.rw.open('nest', { back: 1 });
    const at = await open(page);
    const shot = await ctx.tc.screenshot();
    await cmd(list(page), 'resort');
    const r = await ctx.rw.click(shot, at);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.message, /TCK-7741/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('noUiSlider: the handle holds a touch area child', () => {
  async function dragLower(page: Page, moved: boolean) {
    const [lo] = await page.evaluate(() =>
      (window as unknown as { rw: { handles(): Point[] } }).rw.handles(),
    );
    assert.ok(lo);
    const shot = await ctx.tc.screenshot();
    if (moved) await cmd(page, 'set');
    const { image, css } = shot.frame.geometry;
    const k = image.width / css.width;
    return ctx.tc.drag({
      frame: shot.frame.id,
      from: { x: lo.x * k, y: lo.y * k },
      to: { x: (lo.x + 128) * k, y: lo.y * k },
    });
  }

  test('a still page: the drag of the lower handle is OK and the server saves the new range', async () => {
    const { run, page } = await ctx.rw.open('slider');
    const r = await dragLower(page, false);
    assert.equal(r.verdict, 'OK', r.message);
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([a?.do, a?.form.min, a?.form.max], ['range', '400', '800']);
  });

  test('the page reloads between the press and the release: UNVERIFIED, says so, nothing saved', async () => {
    const { run, page } = await ctx.rw.open('slider');
    const driver = await ctx.tc.driver();
    const input = driver.input.bind(driver);
    driver.input = (async (method: string, params: { type?: string }) => {
      const sent = await input(method as never, params as never);
      if (params.type === 'mousePressed') await page.reload();
      return sent;
    }) as typeof driver.input;
    try {
      const r = await dragLower(page, false);
      assert.equal(r.verdict, 'UNVERIFIED', r.message);
      assert.match(
        r.message,
        /loaded a new document \(.*\) during the drag: the release .* went to the new document/,
      );
    } finally {
      driver.input = input;
    }
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('the handles were moved by script after the screenshot: refused, nothing saved', async () => {
    const { run, page } = await ctx.rw.open('slider');
    assertRefused(await dragLower(page, true), 'STALE_TARGET');
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('a section made inert while it saves (no dialog)', () => {
  test('inert in the frame already: DISABLED (inert, inFrame), not COVERED; nothing saved', async () => {
    const { run, page } = await ctx.rw.open('checkout');
    const save = await ctx.rw.centre(page.locator('#save-address'));
    await cmd(page, 'saving');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, save);
    assertRefused(r, 'DISABLED');
    assert.deepEqual(r.disabled?.reason, 'inert');
    assert.equal(r.disabled?.inFrame, true, r.message);
    assert.doesNotMatch(r.message, /dialog|overlay|[Dd]ismiss/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('made inert after the screenshot: DISABLED, it became so; once saved, the same point saves', async () => {
    const { run, page } = await ctx.rw.open('checkout');
    const save = await ctx.rw.centre(page.locator('#save-address'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'saving');
    const r = await ctx.rw.click(shot, save);
    assertRefused(r, 'DISABLED');
    assert.equal(r.disabled?.inFrame, false);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    await cmd(page, 'saved');
    const ok = await ctx.rw.click(shot, save);
    assert.equal(ok.verdict, 'OK', ok.message);
    assert.deepEqual(await acted(run), [['save-address', 'ORD-1042']]);
  });
});

describe('the Popover API, invoker commands and an exclusive <details> group', () => {
  test('⋯ opens the row’s popover menu (said so), and its Archive archives that row', async () => {
    const { run, page } = await ctx.rw.open('popover');
    let shot = await ctx.tc.screenshot();
    const more = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#row-TCK-7741 button.more')));
    assert.equal(more.verdict, 'OK', more.message);
    assert.deepEqual(more.effect, { kind: 'opened', what: 'menu', name: 'Row actions' }, more.message);
    shot = await ctx.tc.screenshot();
    const archive = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#m-TCK-7741 a.archive')));
    assert.equal(archive.verdict, 'OK', archive.message);
    assert.deepEqual(await acted(run), [['archive', 'TCK-7741']]);
  });

  test('the rows re-sorted after the screenshot: ⋯ is refused, no menu opened, nothing archived', async () => {
    const { run, page } = await ctx.rw.open('popover');
    const at = await ctx.rw.centre(page.locator('#row-TCK-7741 button.more'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    assertRefused(await ctx.rw.click(shot, at), 'STALE_TARGET');
    assert.equal(await page.locator(':popover-open').count(), 0);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('a top-layer <dialog> opened by commandfor: said so; its Save is recorded. A <details> of the group opens', async () => {
    const { run, page } = await ctx.rw.open('popover');
    let shot = await ctx.tc.screenshot();
    const open = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#open-settings')));
    assert.equal(open.effect?.kind, 'opened', open.message);
    assert.deepEqual(
      open.effect,
      { kind: 'opened', what: 'dialog', name: 'Notification settings' },
      open.message,
    );
    shot = await ctx.tc.screenshot();
    const save = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#settings-save')));
    assert.equal(save.verdict, 'OK', save.message);
    assert.deepEqual(await acted(run), [['save-settings', 'notifications']]);

    const again = await ctx.rw.open('popover');
    shot = await ctx.tc.screenshot();
    const summary = again.page.locator('#faq-shipping summary');
    const r = await ctx.rw.click(shot, await ctx.rw.centre(summary));
    assert.equal(r.effect?.kind, 'changed', r.message);
    assert.match(r.message, /now open/);
    assert.equal(await again.page.locator('#faq-returns').getAttribute('open'), null);
  });
});

describe('Apache ECharts 6 (echarts/core): charts that live', () => {
  type Bars = { rw: { barCentre(name: string): Point | null } };
  const centreOf = (page: Page, name: string) =>
    page.evaluate((n) => (window as unknown as Bars).rw.barCentre(n), name) as Promise<Point>;

  for (const renderer of ['svg', 'canvas'] as const) {
    const living = renderer === 'svg' ? 'every label ticks every 200 ms' : 'set again every 300 ms';
    test(`${renderer}, ${living}: the Laptops bar drills into Laptops`, async () => {
      const { run, page } = await ctx.rw.open('echarts', { renderer, live: renderer === 'svg' ? 200 : 300 });
      const at = await centreOf(page, 'Laptops');
      const shot = await ctx.tc.screenshot();
      await think();
      const r = await ctx.rw.click(shot, at);
      assert.equal(r.verdict, 'OK', r.message);
      assert.deepEqual(await acted(run), [['drill', 'Laptops']]);
    });

    test(`${renderer}, ${living}, bars re-sorted after the screenshot: refused, nothing drilled`, async () => {
      const { run, page } = await ctx.rw.open('echarts', { renderer, live: renderer === 'svg' ? 200 : 300 });
      const at = await centreOf(page, 'Laptops');
      const shot = await ctx.tc.screenshot();
      await cmd(page, 'resort');
      assertRefused(await ctx.rw.click(shot, at), 'STALE_TARGET');
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }

  test('canvas re-sorted: Phones’ bar becomes Laptops’, whose body fills the band across the point alike: refused, nothing drilled', async () => {
    const { run, page } = await ctx.rw.open('echarts', { renderer: 'canvas', live: 300 });
    const at = await centreOf(page, 'Phones');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await ctx.rw.click(shot, at);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.message, /column through it changed/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('svg: the value label "5,805" ticks in place; the click on it is OK and says what ticked', async () => {
    const { page } = await ctx.rw.open('echarts', { renderer: 'svg', live: 200 });
    const label = await ctx.rw.centre(page.locator('#chart svg text', { hasText: /^5,[78]\d\d$/ }).first());
    const shot = await ctx.tc.screenshot();
    await think();
    const r = await ctx.rw.click(shot, label);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.message, /ticked to/);
  });
});
