// The guard on real libraries that reuse nodes for new data: AG Grid, a React list keyed by index and by
// id, Shoelace web components. A still page is clicked OK and names the right element; after the page
// moves, no click reaches another record. Truth: the server's action log.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertRefused, cmd, corpusForFile } from './harness.js';

const ctx = corpusForFile();

describe('AG Grid (virtualized, row elements recycled)', () => {
  const deleteOf = async (id: string) =>
    ctx.rw.centre((await ctx.rw.page()).locator('.ag-row', { hasText: id }).locator('a.rw-delete'));

  test('still grid: the Delete of TCK-7741 is clicked OK, names its row, and the server deletes TCK-7741', async () => {
    const { run } = await ctx.rw.open('grid', { animate: 0 });
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await deleteOf('TCK-7741'), { text: 'Delete', context: 'TCK-7741' });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.landed?.role, 'link');
    assert.match(r.landed?.context ?? '', /TCK-7741/);
    assert.match(r.navigation?.url ?? '', /\/rw\/act\?/);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts.map((a) => [a.do, a.id]),
      [['delete', 'TCK-7741']],
    );
  });

  test('still grid: a click on the Ticket cell (the row turns ag-row-hover under the pointer) opens TCK-7741', async () => {
    const { run, page } = await ctx.rw.open('grid', { animate: 0 });
    await page.mouse.move(5, 5); // the pointer away from every row, as when the model looked
    const cell = await ctx.rw.centre(
      page.locator('.ag-row', { hasText: 'TCK-7741' }).locator('[col-id="id"]'),
    );
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, cell, { text: 'TCK-7741' });
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.landed?.context ?? '', /TCK-7741 .*Delete/);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts.map((a) => [a.do, a.id]),
      [['open', 'TCK-7741']],
    );
  });

  for (const [how, query, change] of [
    ['re-sorted through the grid API', { animate: 0 }, 'resort'],
    ['re-sorted into the same row elements', { animate: 0, sortvia: 'data' }, 'resort'],
    ['given new row data in the same row elements', { animate: 0 }, 'replaceData'],
  ] as const) {
    test(`grid ${how} after the screenshot: STALE_TARGET naming the row, nothing deleted`, async () => {
      const { run, page } = await ctx.rw.open('grid', query);
      const at = await deleteOf('TCK-7741');
      const shot = await ctx.tc.screenshot();
      await cmd(page, change);
      const r = await ctx.rw.click(shot, at);
      assertRefused(r, 'STALE_TARGET');
      assert.match(r.message, /TCK-7741/);
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }
});

describe('React list of div rows', () => {
  const inRow = async (id: string, sel: string) =>
    ctx.rw.centre((await ctx.rw.page()).locator('.ticket-row', { hasText: id }).locator(sel));

  test('still list: expect.context finds the div row; Archive (a link) and Delete (a POST form) are OK', async () => {
    const { run } = await ctx.rw.open('list');
    let shot = await ctx.tc.screenshot();
    const archive = await ctx.rw.click(shot, await inRow('TCK-7741', 'a.archive'), { context: 'TCK-7741' });
    assert.equal(archive.verdict, 'OK', archive.message);
    assert.match(archive.landed?.context ?? '', /TCK-7741/);
    await ctx.srv.waitForActions(1, { run, do: 'archive' });

    await ctx.rw.open('list', { run });
    shot = await ctx.tc.screenshot();
    const del = await ctx.rw.click(shot, await inRow('TCK-7743', 'button.delete'), {
      text: 'Delete',
      context: 'TCK-7743',
    });
    assert.equal(del.verdict, 'OK', del.message);
    assert.equal(del.navigation?.reason, 'formSubmissionPost');
    const acts = await ctx.srv.waitForActions(2, { run });
    assert.deepEqual(
      acts.map((a) => [a.method, a.do, a.id]),
      [
        ['GET', 'archive', 'TCK-7741'],
        ['POST', 'delete', 'TCK-7743'],
      ],
    );
  });

  test('a React onClick that sets location.href navigates: OK, and it says where the page went', async () => {
    const { run } = await ctx.rw.open('list');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await inRow('TCK-7744', 'span.title'));
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.message, /navigated to .*\/rw\/act/);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['open', 'TCK-7744']);
  });

  test('marks on div rows carry the row and the note names it; a mark click deletes that row', async () => {
    const { run } = await ctx.rw.open('list');
    const shot = await ctx.tc.screenshot({ marks: true });
    const m = shot.marks?.find((k) => k.hit.name === 'Delete' && /TCK-7745/.test(k.hit.context ?? ''));
    assert.ok(m, `a Delete mark in row TCK-7745: ${JSON.stringify(shot.marks?.slice(0, 4))}`);
    const r = await ctx.tc.click({ frame: shot.frame.id, mark: m.id, expect: { context: 'TCK-7745' } });
    assert.equal(r.verdict, 'OK', r.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['delete', 'TCK-7745']);
  });

  for (const [keys, change] of [
    ['index', 'prepend'],
    ['index', 'resort'],
    ['index', 'rewrite'],
    ['stable', 'prepend'],
    ['stable', 'resort'],
  ] as const) {
    test(`keys=${keys}, ${change} after the screenshot: STALE_TARGET, no archive or delete of any ticket`, async () => {
      const { run, page } = await ctx.rw.open('list', { keys });
      const archive = await inRow('TCK-7741', 'a.archive');
      const del = await inRow('TCK-7742', 'button.delete');
      const shot = await ctx.tc.screenshot();
      await cmd(page, change, 2);
      for (const at of [archive, del]) {
        const r = await ctx.rw.click(shot, at);
        assertRefused(r, 'STALE_TARGET');
        assert.ok(r.changes && r.changes.length > 0, 'the differences are named');
      }
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }
});

describe('Shoelace web components (open shadow DOM)', () => {
  const inRow = async (id: string, sel: string) =>
    ctx.rw.centre((await ctx.rw.page()).locator(`#row-${id}`).locator(sel));

  test('still components: sl-button, sl-checkbox and a shadow-only sl-format-number are OK; the server saw them', async () => {
    const { run } = await ctx.rw.open('components');
    let shot = await ctx.tc.screenshot();
    const hours = await ctx.tc.point({
      frame: shot.frame.id,
      ...(await (async () => {
        const c = await inRow('TCK-7740', 'sl-format-number');
        const { image, css } = shot.frame.geometry;
        return { x: (c.x * image.width) / css.width, y: (c.y * image.height) / css.height };
      })()),
    });
    assert.equal(hours.verdict, 'OK', hours.message);
    assert.equal(hours.hitNow?.tag, 'sl-format-number');

    const check = await ctx.rw.click(shot, await inRow('TCK-7740', 'sl-checkbox'), { context: 'TCK-7740' });
    assert.equal(check.verdict, 'OK', check.message);
    assert.equal(check.landed?.tag, 'sl-checkbox');
    await ctx.srv.waitForActions(1, { run, do: 'check', id: 'TCK-7740' });

    shot = await ctx.tc.screenshot();
    const open = await ctx.rw.click(shot, await inRow('TCK-7741', 'sl-button.open'), { text: 'Open' });
    assert.equal(open.verdict, 'OK', open.message);
    assert.equal(open.landed?.tag, 'sl-button');
    assert.equal(open.landed?.role, 'link');
    const acts = await ctx.srv.waitForActions(1, { run, do: 'open' });
    assert.equal(acts[0]?.id, 'TCK-7741');
  });

  test('a Shoelace dropdown: "More" opens the menu, a new screenshot, "Delete" in it deletes that row', async () => {
    const { run, page } = await ctx.rw.open('components');
    let shot = await ctx.tc.screenshot();
    const more = await ctx.rw.click(shot, await inRow('TCK-7741', 'sl-dropdown sl-button'), { text: 'More' });
    assert.equal(more.verdict, 'OK', more.message);
    const item = page.locator('#row-TCK-7741 sl-menu-item[value=delete]');
    await item.waitFor({ state: 'visible' });
    shot = await ctx.tc.screenshot();
    const del = await ctx.rw.click(shot, await ctx.rw.centre(item), { text: 'Delete', context: 'TCK-7741' });
    assert.equal(del.verdict, 'OK', del.message);
    assert.equal(del.landed?.role, 'menuitem');
    const acts = await ctx.srv.waitForActions(1, { run, do: 'delete' });
    assert.equal(acts[0]?.id, 'TCK-7741');
  });

  test('a component whose shadow content changed in place, or rows re-sorted: STALE_TARGET, nothing opened', async () => {
    for (const change of ['relabel', 'resort']) {
      const { run, page } = await ctx.rw.open('components');
      const open = await inRow('TCK-7741', 'sl-button.open');
      const hours = await inRow('TCK-7742', 'sl-format-number');
      const shot = await ctx.tc.screenshot();
      await cmd(page, change);
      for (const at of [open, hours]) assertRefused(await ctx.rw.click(shot, at), 'STALE_TARGET');
      assert.deepEqual(await ctx.rw.actionsAfter(run), [], change);
    }
  });
});
