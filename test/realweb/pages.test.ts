// The guard on the rest of the corpus: overlays (Bootstrap), same- and cross-site iframes, a scroll
// container, a sticky header, CSS transforms, links / forms / JS / SPA navigation (React Router), a
// canvas chart (Chart.js), and the page background. Truth: the server's action log.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { assertRefused, cmd, corpusForFile } from './harness.js';

const ctx = corpusForFile();

describe('Bootstrap toast and modal', () => {
  test('still page: Export is OK; a toast over it, a modal over a row: COVERED, nothing exported or deleted', async () => {
    let { run, page } = await ctx.rw.open('overlays');
    const exp = await ctx.rw.centre(page.locator('#export'));
    let shot = await ctx.tc.screenshot();
    const ok = await ctx.rw.click(shot, exp, { text: 'Export' });
    assert.equal(ok.verdict, 'OK', ok.message);
    await ctx.srv.waitForActions(1, { run, do: 'export' });

    ({ run, page } = await ctx.rw.open('overlays'));
    const del = await ctx.rw.centre(page.locator('#row-TCK-7741 .delete'));
    shot = await ctx.tc.screenshot();
    await cmd(page, 'showToast');
    const covered = await ctx.rw.click(shot, exp);
    assertRefused(covered, 'COVERED');
    assert.match(covered.message, /in (alert|status)/, 'the cover is named by the toast it belongs to');
    await cmd(page, 'hideAll');
    shot = await ctx.tc.screenshot();
    await cmd(page, 'showModal');
    assertRefused(await ctx.rw.click(shot, del), 'COVERED');
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('iframes', () => {
  for (const which of ['same', 'cross'] as const) {
    test(`${which}-site iframe: a still click is OK and names the link inside; after a re-sort inside: STALE_TARGET`, async () => {
      let { run, page } = await ctx.rw.open('frames');
      const inner = () => page.frameLocator(`#frame-${which}`).locator('#row-TCK-7741 a.delete');
      let shot = await ctx.tc.screenshot();
      const r = await ctx.rw.click(shot, await ctx.rw.centre(inner()), {
        text: 'Delete',
        context: 'TCK-7741',
      });
      assert.equal(r.verdict, 'OK', r.message);
      assert.ok(r.landed?.frame, 'landed names an element inside the iframe');
      assert.match(r.landed?.context ?? '', /TCK-7741/);
      const acts = await ctx.srv.waitForActions(1, { run });
      assert.deepEqual([acts[0]?.id, acts[0]?.frame], ['TCK-7741', which]);
      assert.equal(acts[0]?.hostname, which === 'cross' ? 'localhost' : '127.0.0.1');

      ({ run, page } = await ctx.rw.open('frames'));
      const at = await ctx.rw.centre(inner());
      shot = await ctx.tc.screenshot();
      await cmd(page, 'resortInner', which);
      const stale = await ctx.rw.click(shot, at);
      assertRefused(stale, 'STALE_TARGET');
      assert.match(stale.message, /TCK-7741/);
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }
});

describe('a frame inside a cross-site frame', () => {
  const inner = (page: Page) =>
    page.frameLocator('#frame-outer').frameLocator('#frame-nested').locator('#row-TCK-7741 a.delete');
  const queue = (page: Page) => page.frames().find((f) => f.url().includes('frame=nested')) as Frame;

  test('a still click is OK and names the link inside; after a re-sort inside: STALE_TARGET', async () => {
    let { run, page } = await ctx.rw.open('nest');
    let shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(inner(page)), {
      text: 'Delete',
      context: 'TCK-7741',
    });
    assert.equal(r.verdict, 'OK', r.message);
    assert.ok(r.landed?.frame, 'landed names an element inside the frame');
    assert.match(r.landed?.context ?? '', /TCK-7741/);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id, acts[0]?.frame], ['delete', 'TCK-7741', 'nested']);

    ({ run, page } = await ctx.rw.open('nest'));
    const at = await ctx.rw.centre(inner(page));
    shot = await ctx.tc.screenshot();
    await cmd(queue(page), 'resort');
    const stale = await ctx.rw.click(shot, at);
    assertRefused(stale, 'STALE_TARGET');
    assert.match(stale.message, /TCK-7741/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('frames under CSS transforms', () => {
  for (const which of ['tilted', 'scaled'] as const) {
    const how = which === 'tilted' ? 'a same-origin frame turned -4°' : 'a cross-site frame scaled ×0.75';
    test(`${how}: a still click deletes the row shown there; after a re-sort inside: STALE_TARGET`, async () => {
      const link = (page: Page) => page.frameLocator(`#frame-${which}`).locator('#row-TCK-7738 a.delete');
      const inner = (page: Page) => page.frames().find((f) => f.url().includes(`frame=${which}`)) as Frame;
      // Where the link is on screen. Playwright places a cross-site frame's elements by the frame's offset
      // alone (a scaled frame's link comes out where it would be unscaled), so there the page's own numbers
      // say it: the frame's box, and the link's box in the frame, scaled ×0.75 from the top-left.
      const where = async (page: Page) => {
        if (which === 'tilted') return ctx.rw.centre(link(page));
        const box = await page.locator('#frame-scaled').boundingBox();
        const r = await link(page).evaluate((a) => a.getBoundingClientRect().toJSON());
        assert.ok(box);
        return { x: box.x + 0.75 * (r.x + r.width / 2), y: box.y + 0.75 * (r.y + r.height / 2) };
      };
      let { run, page } = await ctx.rw.open('turned');
      await link(page).waitFor();
      let shot = await ctx.tc.screenshot();
      const r = await ctx.rw.click(shot, await where(page), {
        text: 'Delete',
        context: 'TCK-7738',
      });
      assert.equal(r.verdict, 'OK', r.message);
      const acts = await ctx.srv.waitForActions(1, { run });
      assert.deepEqual([acts[0]?.do, acts[0]?.id, acts[0]?.frame], ['delete', 'TCK-7738', which]);

      ({ run, page } = await ctx.rw.open('turned'));
      await link(page).waitFor();
      const at = await where(page);
      shot = await ctx.tc.screenshot();
      await cmd(inner(page), 'resort');
      assertRefused(await ctx.rw.click(shot, at), 'STALE_TARGET');
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }
});

describe('scrolling: a scroll container and a sticky header', () => {
  test('a row in a scroll container is OK; after the container scrolled: STALE_TARGET, nothing deleted', async () => {
    let { run, page } = await ctx.rw.open('scroll');
    let shot = await ctx.tc.screenshot();
    const ok = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#row-TCK-7742 a.delete')));
    assert.equal(ok.verdict, 'OK', ok.message);
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, 'TCK-7742');

    ({ run, page } = await ctx.rw.open('scroll'));
    const at = await ctx.rw.centre(page.locator('#row-TCK-7742 a.delete'));
    shot = await ctx.tc.screenshot();
    await cmd(page, 'scrollBy', 120);
    assertRefused(await ctx.rw.click(shot, at), 'STALE_TARGET');
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('sticky header on a scrolled page: header link and a row link both land on what the frame showed', async () => {
    let { run, page } = await ctx.rw.open('sticky');
    await page.evaluate(() => window.scrollTo(0, 900));
    let shot = await ctx.tc.screenshot();
    const head = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#export')), { text: 'Export' });
    assert.equal(head.verdict, 'OK', head.message);
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.do, 'export');

    ({ run, page } = await ctx.rw.open('sticky'));
    await page.evaluate(() => window.scrollTo(0, 900));
    const row = page.locator('a.delete').nth(8);
    const id = await row
      .getAttribute('href')
      .then((h) => new URL(h ?? '', ctx.srv.origin).searchParams.get('id'));
    shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(row));
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, id);
  });
});

describe('CSS transforms', () => {
  test('the rotated card and the scaled card are clicked OK; after the card turns: refused, nothing deleted', async () => {
    let { run, page } = await ctx.rw.open('transform');
    let shot = await ctx.tc.screenshot();
    const rot = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#rotated a.delete')));
    assert.equal(rot.verdict, 'OK', rot.message);
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, 'TCK-7741');
    ({ run, page } = await ctx.rw.open('transform'));
    shot = await ctx.tc.screenshot();
    const sc = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#scaled a.delete')));
    assert.equal(sc.verdict, 'OK', sc.message);
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, 'TCK-7742');

    ({ run, page } = await ctx.rw.open('transform'));
    const at = await ctx.rw.centre(page.locator('#rotated a.delete'));
    shot = await ctx.tc.screenshot();
    await cmd(page, 'turn', 40);
    assertRefused(await ctx.rw.click(shot, at), /STALE_TARGET|COVERED/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('navigation is an outcome (React Router 6)', () => {
  for (const [what, sel, doName, reason] of [
    ['a plain link', '#archive-link', 'archive', 'anchorClick'],
    ['a POST form submit', '#close-submit', 'close', 'formSubmissionPost'],
    ['a React onClick that sets location.href', '#open-button', 'open', 'scriptInitiated'],
  ] as const) {
    test(`${what}: OK, landed on it, says where the page went`, async () => {
      const { run, page } = await ctx.rw.open('nav');
      const shot = await ctx.tc.screenshot();
      const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator(sel)));
      assert.equal(r.verdict, 'OK', r.message);
      assert.ok(r.landed, 'landed names the element');
      assert.equal(r.navigation?.kind, 'document');
      assert.equal(r.navigation?.reason, reason);
      assert.equal(r.navigation?.committed, true);
      assert.match(r.navigation?.url ?? '', /\/rw\/act/);
      assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.do, doName);
    });
  }

  test('an SPA route change (history.pushState by the router): OK, same-document, the new URL', async () => {
    const { run, page } = await ctx.rw.open('nav');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#nav-inbox')), { text: 'Inbox' });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.navigation?.kind, 'same-document');
    assert.match(r.navigation?.url ?? '', /\/rw\/nav\/inbox/);
    const acts = await ctx.srv.waitForActions(1, { run, do: 'route' });
    assert.equal(acts[0]?.query.to, '/inbox');
  });
});

describe('the page background and expect', () => {
  test('a point on the background is OK on a still page; expect.text of a link elsewhere is MISSED_TARGET', async () => {
    const { run, page } = await ctx.rw.open('transform');
    const shot = await ctx.tc.screenshot();
    const bg = await ctx.rw.click(shot, { x: 1240, y: 760 });
    assert.equal(bg.verdict, 'OK', bg.message);
    assert.equal(bg.hitAtCapture?.role, 'background');
    const miss = await ctx.rw.click(shot, { x: 1240, y: 760 }, { text: 'Delete' });
    assertRefused(miss, 'MISSED_TARGET');
    const link = await ctx.rw.centre(page.locator('#rotated a.delete'));
    assert.ok(miss.expectedAt, 'says where the described element was');
    assert.ok(Math.abs((miss.expectedAt?.css.x ?? 0) - link.x) < 40, JSON.stringify(miss.expectedAt));
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('a canvas chart (Chart.js)', () => {
  test('a still click on a bar is OK; the chart itself records the ticket under the click', async () => {
    const { run, page } = await ctx.rw.open('chart', { animate: 0 });
    const bars = await page.evaluate(() =>
      (
        window as unknown as {
          rw: { bars(): Array<{ label: string; x: number; y: number; width: number; height: number }> };
        }
      ).rw.bars(),
    );
    const bar = bars[3];
    assert.ok(bar);
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, { x: bar.x + bar.width / 2, y: bar.y + bar.height - 5 });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.landed?.tag, 'canvas');
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, bar.label);
  });
});
