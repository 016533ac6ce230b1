// The pixel guard on a machine without an OCR engine: pixels are still compared, and every verdict says that
// text was not read. (This file's process points TRUECLICK_TESSERACT at a program that does not exist.)
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { librarySession } from '../helpers/library.js';

process.env.TRUECLICK_TESSERACT = '/nonexistent/tesseract';
const ctx = librarySession({ deviceScaleFactor: 1 });

async function open(run: string) {
  await ctx.session.navigate(ctx.srv.url('/rw/canvas-table', { run }));
  const page: Page = (await ctx.session.driver()).page;
  await page.waitForFunction(() => (window as unknown as { rw?: { ready: boolean } }).rw?.ready === true);
  return { page, frame: (await ctx.session.screenshot()).frame.id };
}

describe('pixel guard without OCR', () => {
  test('re-sorted rows are refused by their pixels, and the verdict says the text was not read', async () => {
    const { page, frame } = await open('noocr-1');
    await page.evaluate(() => (window as unknown as { rw: { resort(): Promise<void> } }).rw.resort());
    const r = await ctx.session.click({ frame, x: 1156, y: 240 });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.match(r.message, /% of its pixels\), and its text was not read \(no OCR engine/);
    assert.match(r.pixels?.ocr ?? '', /^unavailable: /);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.actions({ run: 'noocr-1' }).length, 0);
  });

  test('a still row is clicked; expect.text is not checked, and the verdict says so', async () => {
    const { frame } = await open('noocr-2');
    const r = await ctx.session.click({ frame, x: 1156, y: 240, expect: { text: 'TCK-7738' } });
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.message, /Text was not read: .*expect "TCK-7738" was not checked/);
    const [a] = await ctx.srv.waitForActions(1, { run: 'noocr-2' });
    assert.equal(`${a?.do} ${a?.id}`, 'archive TCK-7738');
  });
});
