import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { heldMB } from '../../bench/memory.js';
import { librarySession, swapManyCells } from '../helpers/library.js';

// A frame keeps what its checks need (the part of the page it showed, and the tree above it), not the whole
// DOM snapshot: on a 50 000-element page a kept frame cost about 68 MB and a screenshot about 2 s.

const ctx = librarySession({ deviceScaleFactor: 1 });

describe('a page of about 56 000 elements', () => {
  test('a kept frame holds the part of the page it showed: at most 5 MB each, given back when frames rotate out', async (t) => {
    await ctx.session.navigate(ctx.srv.url('/many', { n: '25000', run: 'big' }));
    const elements = await (await ctx.session.driver()).page.evaluate(
      () => document.querySelectorAll('*').length,
    );
    assert.ok(elements > 50_000, `the page has ${elements} elements`);
    // A frame's snapshot is read after its image is answered: count it once it is.
    const kept = async () => {
      const shot = await ctx.session.screenshot();
      return (await ctx.session.frame(shot.frame.id)).capture.snapshot;
    };
    await kept();
    const before = await heldMB();
    const shots = 10;
    for (let i = 0; i < shots; i++) await kept();
    const perFrame = ((await heldMB()) - before) / shots;
    assert.ok(perFrame <= 5, `each kept frame costs ${perFrame.toFixed(1)} MB`);
    t.diagnostic(`${perFrame.toFixed(2)} MB per kept frame`);
    const boxes = (await kept()).layoutKept;
    assert.ok(boxes < 5_000, `the frame keeps ${boxes} layout boxes of a page of ${elements} elements`);
    // 30 frames of a small page push every large one out: their memory is given back.
    await ctx.session.navigate(ctx.srv.url('/approve', { run: 'small' }));
    for (let i = 0; i < 31; i++) await kept();
    const rotated = await heldMB();
    assert.ok(
      rotated < before + 10,
      `after the frames rotated out the heap is ${rotated.toFixed(0)} MB (was ${before.toFixed(0)})`,
    );
  });

  test('far down the page, a click read off the frame lands and the guard still sees what the point held', async () => {
    await ctx.session.navigate(ctx.srv.url('/many', { n: '25000', run: 'far' }));
    const page = (await ctx.session.driver()).page;
    // Control 24 000 sits in cell (0, 1200): 40 + 1200 × 30 = 36 040 px down the grid.
    await page.evaluate(() => window.scrollTo(0, 36_000 - 300));
    const shot = await ctx.session.screenshot();
    const box = await page.locator('#ctl-24000').boundingBox();
    assert.ok(box);
    const k = shot.frame.geometry.image.width / shot.frame.geometry.css.width;
    const at = { x: (box.x + box.width / 2) * k, y: (box.y + box.height / 2) * k };
    const r = await ctx.session.click({ frame: shot.frame.id, ...at, expect: { text: 'B24000' } });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal((await ctx.srv.waitForHits(1, { run: 'far', type: 'click' }))[0]?.id, 'ctl-24000');
    // What the point held at capture is read from the compact index.
    const report = await ctx.session.point({ frame: shot.frame.id, ...at });
    assert.match(JSON.stringify(report.hitAtCapture), /B24000/);
  });

  test('a change made the moment the screenshot is answered is seen: the snapshot was asked for before the answer', async () => {
    // Chromium takes seconds to write this page's snapshot, so the answer comes long before it is read.
    await ctx.session.navigate(ctx.srv.url('/many', { n: '25000', run: 'moved' }));
    const page = (await ctx.session.driver()).page;
    await page.evaluate(() => window.scrollTo(0, 36_000 - 300));
    const shot = await ctx.session.screenshot();
    // B24000 and B24004 swap cells as soon as the image is in hand (a re-sort while the model reads it).
    await swapManyCells(page, 'ctl-24000', 'ctl-24004');
    const moved = await page.locator('#ctl-24004').boundingBox();
    assert.ok(moved);
    const k = shot.frame.geometry.image.width / shot.frame.geometry.css.width;
    const at = { x: (moved.x + moved.width / 2) * k, y: (moved.y + moved.height / 2) * k };
    const r = await ctx.session.click({ frame: shot.frame.id, ...at });
    assert.notEqual(r.verdict, 'OK', r.message);
    assert.match(JSON.stringify(r.hitAtCapture), /B24000/, 'the frame still knows what the point held');
    assert.match(JSON.stringify(r.hitNow), /B24004/);
    await new Promise((done) => setTimeout(done, 300));
    assert.deepEqual(await ctx.srv.hits({ run: 'moved', type: 'click' }), [], 'nothing was clicked');
  });
});
