import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { attachedMcpForFile } from '../helpers/attached.js';
import { type FrameInfo, frameOf, imagePx, structured, text } from '../helpers/mcp-client.js';

// The action surface beyond the click, through a real MCP client over stdio, on pages built from real
// libraries (SortableJS, interact.js, Tippy, React, Shoelace, native forms). Truth: the server's action log
// and the page's own state, read by the test's own Playwright connection to the same browser.

const uploads = mkdtempSync(join(tmpdir(), 'trueclick-uploads-'));
writeFileSync(join(uploads, 'report.txt'), 'TCK-7741 logs\n'.repeat(20));
writeFileSync(join(uploads, 'a.png'), Buffer.alloc(300, 1));
writeFileSync(join(uploads, 'b.png'), Buffer.alloc(500, 2));
const ctx = attachedMcpForFile(['--upload-dir', uploads]);
after(() => rmSync(uploads, { recursive: true, force: true }));

interface Report {
  verdict: string;
  message: string;
  dispatched: { x: number; y: number } | null;
  landed?: { tag?: string; text?: string; name?: string; context?: string } | null;
  hitNow?: { tag?: string; name?: string } | null;
}

const cmd = (page: Page, name: string, ...args: unknown[]) =>
  page.evaluate(
    ([c, a]) =>
      (window as unknown as { rw: Record<string, (...x: unknown[]) => unknown> }).rw[c as string]?.(
        ...(a as unknown[]),
      ),
    [name, args],
  );

const px = (f: FrameInfo, x: number, y: number) => imagePx(f, { x, y });

describe('hover', () => {
  test('hovering "More" opens the Tippy menu of that row; its Archive link then archives that ticket', async () => {
    const { run, page, f } = await ctx.open('/rw/hover');
    assert.equal(await page.locator('[data-tippy-root]').count(), 0, 'no menu before the hover');
    const r = await ctx.mcp.call('browser_hover', {
      frame: f.id,
      ...px(f, 1180, 104 + 48 * 5),
      expect: { context: 'TCK-7741' },
    });
    const s = structured<Report>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.landed?.tag, 'button');
    await page.locator('#menu-TCK-7741').waitFor({ state: 'visible' });
    const g = await frameOf(ctx.mcp);
    const c = await ctx.mcp.call('browser_click', {
      frame: g.id,
      ...px(g, 1135, 139 + 48 * 5 + 16),
      expect: { text: 'Archive' },
    });
    assert.equal(structured<Report>(c).verdict, 'OK', text(c));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['archive', 'TCK-7741']);
  });

  test('a hover read off a frame taken before the rows re-sorted is refused, and no menu opens', async () => {
    const { page, f } = await ctx.open('/rw/hover');
    await cmd(page, 'resort');
    const r = await ctx.mcp.call('browser_hover', { frame: f.id, ...px(f, 1180, 104 + 48 * 5) });
    assert.equal(r.isError, true);
    assert.equal(structured<Report>(r).verdict, 'STALE_TARGET', text(r));
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(await page.locator('[data-tippy-root]').count(), 0, 'no menu opened');
  });
});

describe('drag', () => {
  test('SortableJS (native HTML5 drag and drop): row 2 dragged by its handle to slot 5; the server saves that order', async () => {
    const { run, f } = await ctx.open('/rw/sortable');
    const r = await ctx.mcp.call('browser_drag', {
      frame: f.id,
      from: px(f, 72, 104 + 48),
      to: px(f, 72, 104 + 48 * 4 + 10),
      expect: { context: 'TCK-7737' },
    });
    const s = structured<Report & { drop?: { hitNow?: { context?: string } } }>(r);
    assert.equal(s.verdict, 'OK', text(r));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.equal(acts[0]?.do, 'reorder');
    assert.equal(acts[0]?.id, 'TCK-7737');
    assert.deepEqual([acts[0]?.form.from, acts[0]?.form.to], ['1', '4']);
  });

  test('interact.js (pointer events): a card dropped on the "done" zone is recorded there', async () => {
    const { run, f } = await ctx.open('/rw/dropzone');
    const r = await ctx.mcp.call('browser_drag', {
      frame: f.id,
      from: px(f, 220, 160),
      to: px(f, 1060, 320),
    });
    const s = structured<Report & { drop?: { hitNow?: { id?: string } } }>(r);
    assert.equal(s.verdict, 'OK', text(r));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id, acts[0]?.form.zone], ['drop', 'TCK-7736', 'done']);
  });

  test('a drag whose start row re-sorted since the frame is refused: nothing is pressed or saved', async () => {
    const { run, page, f } = await ctx.open('/rw/sortable');
    await cmd(page, 'resort');
    const r = await ctx.mcp.call('browser_drag', {
      frame: f.id,
      from: px(f, 72, 104 + 48),
      to: px(f, 72, 104 + 48 * 4),
    });
    assert.equal(structured<Report>(r).verdict, 'STALE_TARGET', text(r));
    assert.equal(structured<Report>(r).dispatched, null);
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { rw: { order(): string[] } }).rw.order().slice(0, 2)),
      ['TCK-7745', 'TCK-7744'],
    );
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.actions({ run }).length, 0);
  });

  test('a drag with its drop point outside the image is refused naming to.x/y; nothing is pressed', async () => {
    const { run, f } = await ctx.open('/rw/sortable');
    const r = await ctx.mcp.call('browser_drag', {
      frame: f.id,
      from: px(f, 72, 152),
      to: { x: f.image.width + 40, y: 10 },
    });
    const s = structured<{ verdict: string; error?: { code: string; field?: string } }>(r);
    assert.equal(s.verdict, 'BAD_INPUT', text(r));
    assert.equal(s.error?.code, 'OUT_OF_RANGE');
    assert.match(s.error?.field ?? '', /^to\./);
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(ctx.srv.actions({ run }).length, 0);
  });
});

describe('select an option', () => {
  test('native selects: by label and by value, a multiple select, then the form posts them', async () => {
    const { run, f } = await ctx.open('/rw/forms');
    const one = await ctx.mcp.call('browser_select_option', {
      frame: f.id,
      ...px(f, 400, 162),
      values: ['Waiting on customer'],
    });
    const s1 = structured<Report & { selected: Array<{ value: string; label: string }> }>(one);
    assert.equal(s1.verdict, 'OK', text(one));
    assert.deepEqual(s1.selected, [{ value: 'pending', label: 'Waiting on customer' }]);
    const many = await ctx.mcp.call('browser_select_option', {
      frame: f.id,
      ...px(f, 400, 250),
      values: ['vpn', 'Urgent'],
    });
    assert.deepEqual(
      structured<{ selected: Array<{ value: string }> }>(many).selected.map((o) => o.value),
      ['vpn', 'urgent'],
      text(many),
    );
    const g = await frameOf(ctx.mcp);
    const save = await ctx.mcp.call('browser_click', { frame: g.id, ...px(g, 280, 488) });
    assert.equal(structured<Report>(save).verdict, 'OK', text(save));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.equal(acts[0]?.form.status, 'pending');
    assert.deepEqual(acts[0]?.formAll.tags, ['vpn', 'urgent']);
  });

  test('a React controlled select gets the events React listens to: its Save link carries the value', async () => {
    const { run, f } = await ctx.open('/rw/forms');
    const r = await ctx.mcp.call('browser_select_option', {
      frame: f.id,
      ...px(f, 928, 164),
      values: ['Blocked by vendor'],
    });
    assert.equal(structured<Report>(r).verdict, 'OK', text(r));
    const g = await frameOf(ctx.mcp);
    const save = await ctx.mcp.call('browser_click', {
      frame: g.id,
      ...px(g, 1194, 164),
      expect: { text: 'Save' },
    });
    assert.equal(structured<Report>(save).verdict, 'OK', text(save));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      [acts[0]?.do, acts[0]?.id, acts[0]?.query.status],
      ['set-status', 'TCK-7742', 'blocked'],
    );
  });

  test('refusals: a disabled option, an option that does not exist (the options are listed), a custom Shoelace select', async () => {
    const { page, f } = await ctx.open('/rw/forms');
    const disabled = await ctx.mcp.call('browser_select_option', {
      frame: f.id,
      ...px(f, 400, 162),
      values: ['merged'],
    });
    assert.equal(disabled.isError, true);
    assert.match(text(disabled), /disabled/);
    const missing = await ctx.mcp.call('browser_select_option', {
      frame: f.id,
      ...px(f, 400, 162),
      values: ['Reopened'],
    });
    assert.match(text(missing), /no option "Reopened".*Waiting on customer.*\(value "pending"\)/);
    const custom = await ctx.mcp.call('browser_select_option', {
      frame: f.id,
      ...px(f, 928, 344),
      values: ['Closed'],
    });
    assert.equal(structured<Report>(custom).verdict, 'MISSED_TARGET', text(custom));
    assert.match(text(custom), /not a native <select>.*click it/);
    assert.equal(await page.locator('#status').inputValue(), 'open', 'nothing was selected');
  });
});

describe('file upload', () => {
  test('a checked click on the file input opens its chooser and fills it; the form uploads the bytes', async () => {
    const { run, f } = await ctx.open('/rw/forms');
    const r = await ctx.mcp.call('browser_file_upload', {
      frame: f.id,
      ...px(f, 400, 366),
      paths: ['report.txt'],
    });
    const s = structured<{ verdict: string; files: Array<{ name: string; size: number }> }>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.deepEqual(
      s.files.map((x) => [x.name, x.size]),
      [['report.txt', 280]],
    );
    const two = await ctx.mcp.call('browser_file_upload', {
      frame: f.id,
      ...px(f, 400, 426),
      paths: ['a.png', 'b.png'],
    });
    assert.equal(structured<{ verdict: string }>(two).verdict, 'OK', text(two));
    const g = await frameOf(ctx.mcp);
    await ctx.mcp.call('browser_click', { frame: g.id, ...px(g, 280, 488) });
    const acts = await ctx.srv.waitForActions(1, { run });
    const files = acts[0]?.files.map((x) => [x.field, x.filename, x.size]);
    assert.deepEqual(files, [
      ['attachment', 'report.txt', 280],
      ['photos', 'a.png', 300],
      ['photos', 'b.png', 500],
    ]);
  });

  test('a styled "Choose avatar" button (a label for a hidden file input) opens the chooser it stands for', async () => {
    const { run, f } = await ctx.open('/rw/forms');
    const r = await ctx.mcp.call('browser_file_upload', {
      frame: f.id,
      ...px(f, 456, 488),
      paths: ['a.png'],
      expect: { text: 'Choose avatar' },
    });
    assert.equal(structured<{ verdict: string }>(r).verdict, 'OK', text(r));
    const g = await frameOf(ctx.mcp);
    await ctx.mcp.call('browser_click', { frame: g.id, ...px(g, 280, 488) });
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts[0]?.files.map((x) => [x.field, x.filename, x.size]),
      [['avatar', 'a.png', 300]],
    );
  });

  test('a path outside the upload folder is refused before anything is clicked', async () => {
    const { page, f } = await ctx.open('/rw/forms');
    const r = await ctx.mcp.call('browser_file_upload', {
      frame: f.id,
      ...px(f, 400, 366),
      paths: ['../../etc/passwd'],
    });
    const s = structured<{ verdict: string; error: { code: string; field: string } }>(r);
    assert.equal(s.verdict, 'BAD_INPUT', text(r));
    assert.match(s.error.code, /UPLOAD_OUTSIDE_FOLDER|FILE_NOT_FOUND/);
    assert.equal(s.error.field, 'paths[0]');
    assert.equal(
      await page.locator('#attachment').evaluate((el) => (el as HTMLInputElement).files?.length),
      0,
    );
  });
});

describe('scroll and zoom', () => {
  test('the wheel at a point inside a scroll box scrolls that box, not the page', async () => {
    const { page, f } = await ctx.open('/rw/scroll');
    const r = await ctx.mcp.call('browser_scroll', { frame: f.id, ...px(f, 340, 280), dx: 0, dy: 240 });
    const s = structured<{
      verdict: string;
      scrolled: { page: boolean; element: { id?: string } };
      moved: { y: number };
      scroll: { y: number };
    }>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.scrolled.page, false);
    assert.equal(s.scrolled.element.id, 'box');
    assert.equal(s.moved.y, 240);
    assert.equal(s.scroll.y, 0, 'the page did not move');
    assert.equal(await page.locator('#box').evaluate((el) => el.scrollTop), 240);
  });

  test('a zoom frame is clickable by its own pixels, and says the region it shows', async () => {
    await ctx.mcp.call('browser_navigate', { url: ctx.srv.url('/approve', { run: 'zoom' }) });
    const f = await frameOf(ctx.mcp);
    // #approve (1042,616,120,40): a region around it, in the frame's image px.
    const a = px(f, 1000, 600);
    const b = px(f, 1200, 680);
    const z = await ctx.mcp.call('browser_zoom', { frame: f.id, region: [a.x, a.y, b.x, b.y] });
    const zf = structured<{ frame: FrameInfo & { origin: { x: number; y: number }; zoomOf: string } }>(
      z,
    ).frame;
    assert.deepEqual(zf.origin, { x: 1000, y: 600 });
    assert.equal(zf.zoomOf, f.id);
    assert.ok(zf.image.width > 200 * 2, `enlarged beyond device px: ${zf.image.width}`);
    // The button's centre (1102, 636) in the zoom frame's pixels.
    const c = await ctx.mcp.call('browser_click', {
      frame: zf.id,
      x: ((1102 - 1000) * zf.image.width) / 200,
      y: ((636 - 600) * zf.image.height) / 80,
    });
    assert.equal(structured<Report>(c).verdict, 'OK', text(c));
    const hits = await ctx.srv.waitForHits(1, { run: 'zoom', type: 'click' });
    assert.equal(hits[0]?.id, 'approve');
    assert.ok(Math.abs((hits[0]?.x ?? 0) - 1102) <= 1 && Math.abs((hits[0]?.y ?? 0) - 636) <= 1);
  });
});

describe('click options', () => {
  test('double, triple and right click, and a Shift-held click, reach the page as such', async () => {
    await ctx.mcp.call('browser_navigate', { url: ctx.srv.url('/approve', { run: 'opts' }) });
    const f = await frameOf(ctx.mcp);
    const at = px(f, 1102, 636);
    for (const args of [
      { click_count: 2 },
      { click_count: 3 },
      { button: 'right' },
      { modifiers: ['Shift'] },
    ]) {
      const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at, ...args });
      assert.equal(structured<Report>(r).verdict, 'OK', `${JSON.stringify(args)}: ${text(r)}`);
    }
    await ctx.srv.waitForHits(1, { run: 'opts', type: 'contextmenu' });
    const clicks = await ctx.srv.waitForHits(6, { run: 'opts', type: 'click' });
    assert.deepEqual(
      clicks.map((h) => h.extra?.detail ?? 1),
      [1, 2, 1, 2, 3, 1],
    );
    assert.deepEqual(clicks.at(-1)?.extra?.held, ['shift']);
    assert.equal(ctx.srv.hits({ run: 'opts', type: 'dblclick' }).length, 2);
    assert.equal(ctx.srv.hits({ run: 'opts', type: 'contextmenu' })[0]?.extra?.mouseButton, 2);
  });
});
