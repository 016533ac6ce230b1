// The pixel guard on points the DOM cannot vouch for: a canvas-drawn ticket table (rows re-sorted or their data
// replaced in place between screenshot and click, a clock redrawn every 100 ms in its header), a Chart.js chart,
// a WebGL wall of tiles and playing <video> previews. The truth is the server's record of where the page's own
// click handler went.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ClickReport } from '../../src/actions/check/verdicts.js';
import { ocrEngine, ocrEngineState } from '../../src/image/ocr.js';
import { imageAt, librarySession } from '../helpers/library.js';

const ctx = librarySession({ deviceScaleFactor: 2 });

type Rw = Record<string, (...args: unknown[]) => unknown>;
const rwCall = <T>(page: Page, name: string) =>
  page.evaluate((n) => (window as unknown as { rw: Rw }).rw[n]?.(), name) as Promise<T>;

let n = 0;
async function open(path: string, query: Record<string, string | number> = {}) {
  const run = `px${++n}`;
  await ctx.session.navigate(ctx.srv.url(path, { run, ...query }));
  const page = (await ctx.session.driver()).page;
  await page.waitForFunction(() => (window as unknown as { rw?: { ready: boolean } }).rw?.ready === true);
  const shot = await ctx.session.screenshot();
  // CSS px of the viewport → the frame's image px, as a model reading the screenshot would answer.
  const img = (x: number, y: number) => {
    const { x: ix, y: iy } = imageAt(shot, { x, y });
    return { x: ix, y: iy };
  };
  return { run, page, frame: shot.frame.id, img };
}

const archiveOf = (row: number) => ({ x: 1156, y: 144 + 48 * row });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Nothing recorded for this run a moment after a refusal. */
async function nothingDone(run: string) {
  await sleep(300);
  assert.deepEqual(
    ctx.srv.actions({ run }).map((a) => `${a.do} ${a.id}`),
    [],
  );
}

const ocr = ocrEngine().ok;

describe('pixel guard: canvas, chart, WebGL', () => {
  test('OCR costs nothing until a click meets a canvas, whose click starts its engine in the background', {
    skip: !ocr && 'no OCR engine',
  }, async () => {
    await ctx.session.navigate(ctx.srv.url('/approve', { run: 'px-dom' }));
    const shot = await ctx.session.screenshot();
    const r = await ctx.session.click({
      ...imageAt(shot, { x: 1102, y: 636 }),
    });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(ocrEngineState(), undefined, 'no OCR engine for a click the DOM vouches for');
    const { frame, img } = await open('/rw/canvas-table');
    const c = await ctx.session.click({ frame, ...img(archiveOf(2).x, archiveOf(2).y) });
    assert.equal(c.verdict, 'OK', c.message);
    assert.equal(c.pixels?.ocr, 'not needed');
    assert.ok(ocrEngineState(), 'the engine is up for the next changed band');
  });

  test('a press the canvas answers by drawing is said to have changed it; one it does not answer, not', async () => {
    const run = 'px-drawn';
    await ctx.session.navigate(ctx.srv.url('/canvas', { run }));
    const click = async (x: number, y: number) => {
      const shot = await ctx.session.screenshot();
      return ctx.session.click({
        ...imageAt(shot, { x, y }),
      });
    };
    // Save is drawn dark once pressed (fixtures/pages/canvas.js); the DOM does not change.
    const save = await click(260, 192);
    assert.equal(save.verdict, 'OK', save.message);
    const hits = await ctx.srv.waitForHits(1, { run, type: 'click' });
    assert.equal(hits[0]?.extra?.button, 'Save', 'the page drew its Save button pressed');
    assert.equal(save.effect?.kind, 'changed', JSON.stringify(save.effect));
    assert.doesNotMatch(save.message, /Nothing on the page changed/);
    assert.match(save.message, /canvas/);
    // An empty spot: the page draws the same picture again.
    const empty = await click(800, 300);
    assert.equal(empty.verdict, 'OK', empty.message);
    assert.deepEqual(
      empty.effect?.kind === 'none' && empty.effect.pixels,
      'same',
      JSON.stringify(empty.effect),
    );
    assert.match(empty.message, /band under the point/);
  });

  // 1 ms: the alert opens before the guard is disarmed, whose call then waits on it past its budget; an
  // agent that thinks 5 s before answering must still find its dialog and its tab.
  for (const ms of [1, 20]) {
    test(`a canvas press that raises an alert ${ms} ms later: the alert can be answered, and the tab stays`, async () => {
      const run = `px-alert-${ms}`;
      await ctx.session.navigate(ctx.srv.url('/canvas', { run, alert: ms }));
      const shot = await ctx.session.screenshot();
      const r = await ctx.session.click({
        ...imageAt(shot, { x: 260, y: 192 }),
      });
      assert.equal(r.verdict, 'OK', r.message);
      // The post-press reads must not outlive the alert as a stuck page (its tab replaced).
      await sleep(5500);
      assert.equal(ctx.session.takeNotice(), undefined, 'no tab was replaced');
      const answered = await ctx.session.handleDialog(true);
      assert.equal(answered.dialog?.message, 'Saved Save', JSON.stringify(answered));
      assert.equal(ctx.session.takeNotice(), undefined, 'no tab was replaced');
      assert.match((await ctx.session.driver()).page.url(), /\/canvas\?/);
      // Read only now: the alert freezes the page, and with it a hit still waiting to be posted (CI saw it so).
      assert.equal((await ctx.srv.waitForHits(1, { run, type: 'click' }))[0]?.extra?.button, 'Save');
    });
  }

  test('a still canvas table is clicked on the row the model saw (a clock ticks in its header)', async () => {
    const { run, frame, img } = await open('/rw/canvas-table');
    await sleep(250); // the clock has been redrawn since the screenshot
    const r: ClickReport = await ctx.session.click({ frame, ...img(archiveOf(3).x, archiveOf(3).y) });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.hitNow?.tag, 'canvas');
    assert.ok(r.pixels, 'the pixel guard ran');
    assert.equal(r.pixels.changedShare, 0);
    assert.ok(r.pixels.band.height >= 20 && r.pixels.band.height <= 48, JSON.stringify(r.pixels.band));
    assert.equal(typeof r.pixels.windowMs, 'number');
    assert.match(r.message, /band under it .* before the press; no guard sees inside pixels/);
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.equal(`${a?.do} ${a?.id}`, 'archive TCK-7739');
  });

  test('re-sorted rows: refused, naming the text then and now; nothing archived', async () => {
    const { run, page, frame, img } = await open('/rw/canvas-table');
    await rwCall(page, 'resort');
    const r = await ctx.session.click({ frame, ...img(archiveOf(3).x, archiveOf(3).y) });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.equal(r.dispatched, null);
    assert.ok((r.pixels?.changedShare ?? 0) > 0);
    if (ocr) {
      assert.match(r.pixels?.textThen ?? '', /TCK-7739/);
      assert.match(r.pixels?.textNow ?? '', /TCK-7742/);
      assert.match(r.message, /read "TCK-7739[^"]*" in frame f\d+, now "TCK-7742/);
    } else assert.match(r.message, /text was not read/);
    await nothingDone(run);
  });

  test('row data replaced in place (same layout, other tickets): refused; nothing archived', async () => {
    const { run, page, frame, img } = await open('/rw/canvas-table');
    await rwCall(page, 'replace');
    const r = await ctx.session.click({ frame, ...img(archiveOf(0).x - 900, archiveOf(0).y) });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    if (ocr) assert.match(r.message, /TCK-7736.*now "TCK-7746/);
    await nothingDone(run);
  });

  test('expect.text on a canvas is read by OCR: the wrong row is refused with where the text is', {
    skip: !ocr && 'no OCR engine',
  }, async () => {
    const { run, frame, img } = await open('/rw/canvas-table');
    const r = await ctx.session.click({
      frame,
      ...img(archiveOf(3).x, archiveOf(3).y),
      expect: { context: 'TCK-7741' },
    });
    assert.equal(r.verdict, 'MISSED_TARGET', r.message);
    assert.match(r.message, /read "TCK-7739.*not "TCK-7741"/);
    // TCK-7741 is row 5: its id drawn from x=64, centred at y=144+48*5.
    assert.ok(r.expectedAt, r.message);
    assert.ok(Math.abs(r.expectedAt.css.y - (144 + 48 * 5)) < 8, JSON.stringify(r.expectedAt));
    assert.ok(r.expectedAt.css.x > 60 && r.expectedAt.css.x < 160, JSON.stringify(r.expectedAt));
    await nothingDone(run);
    const ok = await ctx.session.click({
      frame,
      ...img(archiveOf(5).x, archiveOf(5).y),
      expect: { context: 'TCK-7741' },
    });
    assert.equal(ok.verdict, 'OK', ok.message);
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.equal(`${a?.do} ${a?.id}`, 'archive TCK-7741');
  });

  test('a Chart.js bar chart re-sorted after the screenshot: refused; still: the bar is opened', async () => {
    const { run, page, frame, img } = await open('/rw/chart', { animate: 0 });
    const bars = await rwCall<Array<{ label: string; x: number; y: number; width: number; height: number }>>(
      page,
      'bars',
    );
    const bar = bars[2] as (typeof bars)[number];
    const at = img(bar.x + bar.width / 2, bar.y + bar.height - 10);
    await rwCall(page, 'resort');
    const r = await ctx.session.click({ frame, ...at });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    await nothingDone(run);
    const fresh = await ctx.session.screenshot();
    const now = await rwCall<typeof bars>(page, 'bars');
    const target = now.find((b) => b.label === bar.label) as (typeof bars)[number];
    const ok = await ctx.session.click({
      ...imageAt(fresh, { x: target.x + target.width / 2, y: target.y + target.height - 10 }),
    });
    assert.equal(ok.verdict, 'OK', ok.message);
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.equal(`${a?.do} ${a?.id}`, `bar ${bar.label}`);
  });

  test('a WebGL canvas: tiles swapped are refused by the changed share; a still tile is opened', async (t) => {
    const { run, page, frame, img } = await open('/rw/webgl');
    if (!(await page.evaluate(() => (window as unknown as { rw: { webgl: boolean } }).rw.webgl))) {
      t.skip('this Chromium has no WebGL');
      return;
    }
    const tiles = await rwCall<Array<{ id: string; x: number; y: number }>>(page, 'tiles');
    const tile = tiles[1] as (typeof tiles)[number];
    await rwCall(page, 'resort');
    const r = await ctx.session.click({ frame, ...img(tile.x + 100, tile.y + 100) });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.ok((r.pixels?.changedShare ?? 0) > 0.1, JSON.stringify(r.pixels));
    assert.match(r.message, /% of its pixels/);
    await nothingDone(run);
    const fresh = await ctx.session.screenshot();
    const ok = await ctx.session.click({
      ...imageAt(fresh, { x: tile.x + 100, y: tile.y + 100 }),
    });
    assert.equal(ok.verdict, 'OK', ok.message);
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.equal(`${a?.do} ${a?.id}`, 'open TCK-7742');
  });

  // Without OCR a band that moves is refused: text in it could name another record, and tones cannot tell that.
  test('a playing video moves by itself: its tones vouch for it, so it is clicked, and a swapped stream is refused', {
    skip: !ocr && 'no OCR engine',
  }, async () => {
    const { run, page, frame, img } = await open('/rw/video');
    await page.waitForFunction(() => (window as unknown as { rw: { playing(): boolean } }).rw.playing());
    type Preview = { id: string; x: number; y: number; width: number; height: number };
    const [first, second] = await rwCall<Preview[]>(page, 'previews');
    assert.ok(first && second);
    await sleep(200); // the bar has swept on since the screenshot
    const r = await ctx.session.click({ frame, ...img(second.x + 140, second.y + 90) });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.hitNow?.tag, 'video');
    assert.ok(r.pixels?.moving, JSON.stringify(r.pixels));
    assert.ok(r.pixels.moving.tonesAlike >= 0.75, JSON.stringify(r.pixels));
    assert.match(r.message, /moves by itself .* tones/);
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.equal(`${a?.do} ${a?.id}`, `open ${second.id}`);

    const again = await open('/rw/video');
    await again.page.waitForFunction(() =>
      (window as unknown as { rw: { playing(): boolean } }).rw.playing(),
    );
    await rwCall(again.page, 'swap');
    const s = await ctx.session.click({ frame: again.frame, ...again.img(first.x + 140, first.y + 90) });
    assert.equal(s.verdict, 'STALE_TARGET', s.message);
    assert.ok((s.pixels?.moving?.tonesAlike ?? 1) < 0.75, JSON.stringify(s.pixels));
    assert.match(s.message, /moves by itself .* tones/);
    await nothingDone(again.run);
  });
});
