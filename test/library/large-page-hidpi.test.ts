// A large page at devicePixelRatio 2 in a headless window, which draws at 1: the screenshot is taken at the
// window's ratio (the 1280×800 CSS viewport as a 1280×800 image), so Chromium does not lay the page's 10 000
// elements out again for it. These tests hold that image to what the page showed when asked, and the checks
// that read it (the record's walk, the pixel guard's re-read at the frame's scale) to the page's own record.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { imageAt, librarySession, swapManyCells } from '../helpers/library.js';

const ctx = librarySession({ deviceScaleFactor: 2 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The colour of the image pixel at a CSS point of the viewport, as r/g/b. */
async function colourAt(base64: string, at: { x: number; y: number }, k: number) {
  const { data } = await sharp(Buffer.from(base64, 'base64'))
    .extract({ left: Math.round(at.x * k), top: Math.round(at.y * k), width: 1, height: 1 })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return `${data[0]}/${data[1]}/${data[2]}`;
}

describe('a large page at devicePixelRatio 2', () => {
  test('a change the page made just before the screenshot is in its image, every time', async () => {
    await ctx.session.navigate(ctx.srv.url('/many', { n: '4440', run: 'fresh' }));
    const page = (await ctx.session.driver()).page;
    const colours = { red: '255/0/0', blue: '0/0/255', green: '0/128/0', black: '0/0/0' };
    const seen: string[] = [];
    for (const round of [1, 2]) {
      for (const [name, rgb] of Object.entries(colours)) {
        // Hiding the grid makes the page lay out its 10 000 elements again: the surface drawn before it
        // still shows the grid until the page draws anew.
        await page.evaluate((c) => {
          document.body.style.background = c;
          for (const e of Array.from(document.body.children)) (e as HTMLElement).style.visibility = 'hidden';
        }, name);
        const shot = await ctx.session.screenshot();
        const { image, css } = shot.frame.geometry;
        assert.deepEqual([image.width, image.height], [1280, 800], 'the image is the CSS viewport');
        const got = await colourAt(shot.base64, { x: 640, y: 400 }, image.width / css.width);
        seen.push(`${round} ${name}: ${got}`);
        assert.equal(got, rgb, seen.join('; '));
        await page.evaluate(() => {
          document.body.style.background = '';
          for (const e of Array.from(document.body.children)) (e as HTMLElement).style.visibility = '';
        });
        await sleep(50);
      }
    }
  });

  test('scrolled down, a click read off the frame lands on the control the model saw; swapped, it is refused', async () => {
    await ctx.session.navigate(ctx.srv.url('/many', { n: '4440', run: 'far2' }));
    const page = (await ctx.session.driver()).page;
    // Control 4000 sits in cell (0, 200): 40 + 200 × 30 = 6 040 px down the grid.
    await page.evaluate(() => window.scrollTo(0, 6_040 - 300));
    const shot = await ctx.session.screenshot();
    const box = await page.locator('#ctl-4000').boundingBox();
    assert.ok(box);
    const at = imageAt(shot, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    const r = await ctx.session.click({ ...at, expect: { text: 'B4000' } });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal((await ctx.srv.waitForHits(1, { run: 'far2', type: 'click' }))[0]?.id, 'ctl-4000');

    await ctx.session.navigate(ctx.srv.url('/many', { n: '4440', run: 'swap2' }));
    await page.evaluate(() => window.scrollTo(0, 6_040 - 300));
    const before = await ctx.session.screenshot();
    await swapManyCells(page, 'ctl-4000', 'ctl-4004');
    const moved = await page.locator('#ctl-4004').boundingBox();
    assert.ok(moved);
    const s = await ctx.session.click(
      imageAt(before, { x: moved.x + moved.width / 2, y: moved.y + moved.height / 2 }),
    );
    assert.notEqual(s.verdict, 'OK', s.message);
    assert.match(JSON.stringify(s.hitAtCapture), /B4000/);
    await sleep(300);
    assert.deepEqual(await ctx.srv.hits({ run: 'swap2', type: 'click' }), [], 'nothing was clicked');
  });

  /** A corpus page made large by nine thousand elements out of sight, and its screenshot. */
  const openLarge = async (name: string, run: string) => {
    await ctx.session.navigate(ctx.srv.url(`/rw/${name}`, { run }));
    const page = (await ctx.session.driver()).page;
    await page.waitForFunction(() => (window as unknown as { rw?: { ready: boolean } }).rw?.ready === true);
    await page.evaluate(() => {
      const box = document.createElement('div');
      box.style.display = 'none';
      box.innerHTML = '<span></span>'.repeat(9_000);
      document.body.append(box);
    });
    const shot = await ctx.session.screenshot();
    const { image, css } = shot.frame.geometry;
    assert.deepEqual([image.width, image.height], [css.width, css.height], 'the image is the CSS viewport');
    return { page, shot };
  };
  const resort = (page: Page) =>
    page.evaluate(() => (window as unknown as { rw: { resort: () => void } }).rw.resort());

  // The pixels now are captured at the frame's scale, the window's own ratio too.
  for (const c of [
    {
      name: 'canvas-table',
      what: 'a canvas table',
      at: async () => ({ x: 1156, y: 144 + 48 * 3 }),
      did: 'archive TCK-7739',
    },
    {
      name: 'swatches',
      what: 'rows the DOM cannot tell apart (Vue 3 colour picker)',
      at: async (page: Page) => {
        const b = await page.locator('.swatch-row:nth-child(3) button').boundingBox();
        assert.ok(b);
        return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      },
      did: 'colour cfd3d7',
    },
  ])
    test(`${c.what} on a large page: its pixels are read again at the frame's scale (still: clicked; re-sorted: refused)`, async () => {
      const still = await openLarge(c.name, `still-${c.name}`);
      await sleep(250); // a canvas's clock has been redrawn since the screenshot
      const r = await ctx.session.click(imageAt(still.shot, await c.at(still.page)));
      assert.equal(r.verdict, 'OK', r.message);
      assert.ok(r.pixels, 'the pixel guard ran');
      assert.equal(r.pixels.changedShare, 0);
      const [a] = await ctx.srv.waitForActions(1, { run: `still-${c.name}` });
      assert.equal(`${a?.do} ${a?.id}`, c.did);

      const moved = await openLarge(c.name, `resort-${c.name}`);
      const point = await c.at(moved.page);
      await resort(moved.page);
      const s = await ctx.session.click(imageAt(moved.shot, point));
      assert.equal(s.verdict, 'STALE_TARGET', s.message);
      await sleep(300);
      assert.deepEqual(ctx.srv.actions({ run: `resort-${c.name}` }), []);
    });
});
