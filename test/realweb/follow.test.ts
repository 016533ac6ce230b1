// `follow: true` on real libraries: when the record the frame showed at the point moved (a re-sorted AG
// Grid, a React list keyed by index with a row prepended, a Vue list with a job prepended, a Lit app
// re-sorted inside its shadow root, rows re-sorted in a cross-site frame), the click goes to that record
// where it is now, and the server's log says it was that record. Where the record cannot be found once,
// unchanged, in view, nothing is clicked and the answer says why. Truth: the server's action log.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import type { Screenshot } from '../../src/index.js';
import { assertRefused, cmd, corpusForFile, type Point } from './harness.js';

const ctx = corpusForFile();

async function actedOn(run: string): Promise<Array<[string | null, string | null]>> {
  return (await ctx.srv.waitForActions(1, { run })).map((a) => [a.do, a.id]);
}

/** A click read off the frame as a model would (image px), with `follow` on. */
function follow(shot: Screenshot, css: Point, extra: { strict?: boolean } = {}) {
  const { image, css: c } = shot.frame.geometry;
  return ctx.tc.click({
    frame: shot.frame.id,
    x: (css.x * image.width) / c.width,
    y: (css.y * image.height) / c.height,
    follow: true,
    ...extra,
  });
}

/** Ticket ids whose row `rowSel` shows fully in the viewport, top to bottom, with their row's top (CSS px). */
function shownRows(where: Page | Frame, rowSel: string, idSel: string): Promise<Array<[string, number]>> {
  return where.evaluate(
    ([rs, is]) => {
      const out: Array<[string, number]> = [];
      for (const row of Array.from(document.querySelectorAll(rs))) {
        const r = row.getBoundingClientRect();
        const id = row.querySelector(is)?.textContent?.trim();
        // Shown: the page's own hit-test finds the row at its top and bottom (a grid clips its rows).
        const at = (y: number) => row.contains(document.elementFromPoint(r.left + 20, y));
        if (id && r.height > 0 && at(r.top + 2) && at(r.bottom - 2)) out.push([id, Math.round(r.top)]);
      }
      return out.sort((a, b) => a[1] - b[1]);
    },
    [rowSel, idSel] as const,
  );
}

/** A ticket shown before and after a change, at another place: the case to follow. */
function movedButShown(before: Array<[string, number]>, after: Array<[string, number]>): string {
  const now = new Map(after);
  const id = before.find(([k, y]) => now.has(k) && Math.abs((now.get(k) ?? y) - y) > 20)?.[0];
  assert.ok(id, `a row shown before and after the change, elsewhere: ${JSON.stringify({ before, after })}`);
  return id;
}

describe('AG Grid re-sorted (row elements moved, or reused for other tickets)', () => {
  for (const [how, query] of [
    ['through the grid API', { animate: 0, rows: 20 }],
    ['into the same row elements', { animate: 0, rows: 20, sortvia: 'data' }],
  ] as const) {
    test(`re-sorted ${how}: Delete follows the ticket to its new row, and the server deletes that ticket`, async () => {
      const { run, page } = await ctx.rw.open('grid', query);
      const rows = () => shownRows(page, '.ag-row', '[col-id="id"]');
      const before = await rows();
      const shot = await ctx.tc.screenshot();
      await cmd(page, 'resort');
      await cmd(page, 'resort');
      const id = movedButShown(before, await rows());
      const y = before.find(([k]) => k === id)?.[1] ?? 0;
      const link = await ctx.rw.centre(page.locator('.ag-row', { hasText: id }).locator('a.rw-delete'));
      // The point as the frame showed it: the link's x, the row's top then.
      const r = await follow(shot, { x: link.x, y: y + 20 });
      assert.equal(r.verdict, 'OK', r.message);
      assert.equal(r.followed?.record, id);
      assert.match(r.message, new RegExp(`^Followed: "${id}" moved`));
      assert.deepEqual(await actedOn(run), [['delete', id]]);
    });
  }

  test('without follow the same move is refused, nothing deleted', async () => {
    const { run, page } = await ctx.rw.open('grid', { animate: 0 });
    const link = await ctx.rw.centre(page.locator('.ag-row', { hasText: 'TCK-7738' }).locator('a.rw-delete'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await ctx.rw.click(shot, link);
    assertRefused(r, 'STALE_TARGET');
    assert.equal(r.notFollowed, undefined);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('new data in the same rows (the ticket left the grid): not followed, nothing deleted', async () => {
    const { run, page } = await ctx.rw.open('grid', { animate: 0 });
    const link = await ctx.rw.centre(page.locator('.ag-row', { hasText: 'TCK-7741' }).locator('a.rw-delete'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'replaceData');
    const r = await follow(shot, link);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /no record in the page holds "TCK-7741"/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('React list of div rows keyed by index', () => {
  const inRow = async (page: Page, id: string, sel: string) =>
    ctx.rw.centre(page.locator('.ticket-row', { hasText: id }).locator(sel));

  test('a row prepended (every row element now shows another ticket): Delete (a POST form) follows TCK-7741', async () => {
    const { run, page } = await ctx.rw.open('list');
    const del = await inRow(page, 'TCK-7741', 'button.delete');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'prepend');
    const r = await follow(shot, del);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.followed?.record, 'TCK-7741');
    assert.ok(r.followed && r.followed.to.y - r.followed.from.y > 40, 'one row down');
    assert.match(r.message, /moved [\d.]+ CSS px down/);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts.map((a) => [a.method, a.do, a.id]),
      [['POST', 'delete', 'TCK-7741']],
    );
  });

  test('rows prepended until the ticket is below the viewport: not followed, told where it went', async () => {
    const { run, page } = await ctx.rw.open('list');
    const del = await inRow(page, 'TCK-7741', 'button.delete');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'prepend', 20);
    const r = await follow(shot, del);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /"TCK-7741" is now [\d.]+ CSS px below the viewport, out of view/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('the ticket shown twice (a copy pinned on top): not followed, nothing deleted', async () => {
    const { run, page } = await ctx.rw.open('list');
    const del = await inRow(page, 'TCK-7741', 'button.delete');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'pinCopy', 'TCK-7741');
    const r = await follow(shot, del);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /2 records in the page now hold "TCK-7741"/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('the ticket rewritten in place (another title and status): not followed, nothing deleted', async () => {
    const { run, page } = await ctx.rw.open('list');
    const del = await inRow(page, 'TCK-7741', 'button.delete');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'rewrite');
    const r = await follow(shot, del);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /"TCK-7741" .*changed/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('Vue 3 job list keyed by index, durations ticking', () => {
  test('a job prepended: Cancel follows JOB-4103 one row down while its duration ticks', async () => {
    const { run, page } = await ctx.rw.open('jobs');
    const cancel = await ctx.rw.centre(page.locator('.job:has(.id:text-is("JOB-4103")) a.cancel'));
    const shot = await ctx.tc.screenshot();
    await new Promise((r) => setTimeout(r, 600));
    await cmd(page, 'prepend');
    const r = await follow(shot, cancel);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.followed?.record, 'JOB-4103');
    assert.deepEqual(await actedOn(run), [['cancel', 'JOB-4103']]);
  });
});

describe('a Lit app (records inside its shadow root)', () => {
  test('accounts re-sorted into the same row elements: Following follows @alan', async () => {
    const { run, page } = await ctx.rw.open('people');
    await page.mouse.move(5, 5);
    const rows = () => page.locator('people-app .person');
    const handles = async () =>
      (await rows().allInnerTexts()).map((t) => /@\w+/.exec(t)?.[0]).filter(Boolean);
    const before = await handles();
    const at = await ctx.rw.centre(page.locator('.person:has(.handle:text-is("@alan")) a.follow'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const after = await handles();
    assert.notEqual(after.indexOf('@alan'), before.indexOf('@alan'), 'the account moved');
    const r = await follow(shot, at);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.followed?.record ?? '', /Alan Turing|@alan/);
    assert.deepEqual(await actedOn(run), [['unfollow', 'alan']]);
  });
});

describe('a cross-site frame', () => {
  test('rows re-sorted inside the cross-site iframe: Delete follows TCK-7741 there', async () => {
    const { run, page } = await ctx.rw.open('frames');
    const cross = page.frameLocator('#frame-cross');
    const del = await ctx.rw.centre(cross.locator('#row-TCK-7741 .delete'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resortInner', 'cross');
    const r = await follow(shot, del);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.followed?.record, 'TCK-7741');
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([a?.do, a?.id, a?.frame], ['delete', 'TCK-7741', 'cross']);
  });
});

describe('not followed where the record cannot be told, or cannot be pressed, at its new place', () => {
  test('Vue sheet rows told apart only by their inputs: re-sorted, "Delete row" follows the row that held TCK-7741', async () => {
    const { run, page } = await ctx.rw.open('sheet');
    // The sixth row holds TCK-7741 (in its inputs only).
    const sixth = page.locator('form.sheet-row').nth(5);
    assert.equal(await sixth.locator('input.id').inputValue(), 'TCK-7741');
    const del = await ctx.rw.centre(sixth.locator('button'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await follow(shot, del);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.followed?.record, 'TCK-7741');
    const [a] = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([a?.do, a?.id], ['delete', 'TCK-7741']);
  });

  test('alike rows (a copy of TCK-7737 pinned two rows above it): the copy is not followed after a prepend', async () => {
    const { run, page } = await ctx.rw.open('list');
    await cmd(page, 'pinCopy', 'TCK-7737');
    const copy = await ctx.rw.centre(page.locator('.ticket-row').first().locator('a.archive'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'prepend');
    const r = await follow(shot, copy);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /no text in its record told it apart from the others/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('a canvas table re-sorted (only pixels tell its rows apart): not followed, nothing archived', async () => {
    const { run, page } = await ctx.rw.open('canvas-table');
    const rows = await page.evaluate(() =>
      (
        window as unknown as {
          rw: { rows(): Array<{ archive: { x: number; y: number; width: number; height: number } }> };
        }
      ).rw.rows(),
    );
    const b = rows[3]?.archive;
    assert.ok(b);
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await follow(shot, { x: b.x + b.width / 2, y: b.y + b.height / 2 });
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /only its pixels tell this element apart/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('Bootstrap table re-sorted: Delete follows TCK-7738; with the modal open over its new place, not followed', async () => {
    let { run, page } = await ctx.rw.open('overlays');
    let del = await ctx.rw.centre(page.locator('#row-TCK-7738 .delete'));
    let shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const ok = await follow(shot, del);
    assert.equal(ok.verdict, 'OK', ok.message);
    assert.deepEqual(await actedOn(run), [['delete', 'TCK-7738']]);

    ({ run, page } = await ctx.rw.open('overlays'));
    del = await ctx.rw.centre(page.locator('#row-TCK-7738 .delete'));
    shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    await cmd(page, 'showModal');
    const r = await follow(shot, del);
    assertRefused(r, /STALE_TARGET|COVERED/);
    assert.match(r.notFollowed?.why ?? '', /lies on top of the row "TCK-7738" at its new place/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('React list: TCK-7741 moved and its Delete disabled meanwhile: DISABLED at its new place, nothing deleted', async () => {
    const { run, page } = await ctx.rw.open('list');
    const del = await ctx.rw.centre(
      page.locator('.ticket-row', { hasText: 'TCK-7741' }).locator('button.delete'),
    );
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'prepend');
    await cmd(page, 'lock', 'TCK-7741');
    const r = await follow(shot, del);
    assertRefused(r, 'DISABLED');
    assert.match(r.notFollowed?.why ?? '', /at its new place, CSS \([\d., ]+\): DISABLED/);
    assert.match(
      r.message,
      /moved [\d.]+ CSS px down since frame f\d+, to CSS .*; not followed there: .*cannot act: it is disabled/,
    );
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('AG Grid: the ticket moved under the grid’s visible part: not followed, told to scroll the list', async () => {
    const { run, page } = await ctx.rw.open('grid', { animate: 0, rows: 20 });
    // TCK-7740 is the 5th row: after two sorts (title, then id descending) it is the 16th, below what shows.
    const link = await ctx.rw.centre(page.locator('.ag-row', { hasText: 'TCK-7740' }).locator('a.rw-delete'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    await cmd(page, 'resort');
    const r = await follow(shot, link);
    assertRefused(r, 'STALE_TARGET');
    assert.match(
      r.notFollowed?.why ?? '',
      /"TCK-7740" is now [\d.]+ CSS px below the visible part of its scrolling list/,
    );
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('Vue jobs with strict: JOB-4103 moved and its duration ticked: not followed (strict counts every change)', async () => {
    const { run, page } = await ctx.rw.open('jobs');
    const cancel = await ctx.rw.centre(page.locator('.job:has(.id:text-is("JOB-4103")) a.cancel'));
    const shot = await ctx.tc.screenshot();
    await new Promise((r) => setTimeout(r, 600));
    await cmd(page, 'prepend');
    const r = await follow(shot, cancel, { strict: true });
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.notFollowed?.why ?? '', /the record "JOB-4103" changed: .*Running for/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('marks', () => {
  test('a mark on Delete of TCK-7745, then a row prepended (keyed by index): with follow, TCK-7745 is deleted', async () => {
    const { run, page } = await ctx.rw.open('list');
    const shot = await ctx.tc.screenshot({ marks: true });
    const m = shot.marks?.find((k) => k.hit.name === 'Delete' && /TCK-7745/.test(k.hit.context ?? ''));
    assert.ok(m, 'a Delete mark in row TCK-7745');
    await cmd(page, 'prepend');
    const refused = await ctx.tc.click({ frame: shot.frame.id, mark: m.id });
    assertRefused(refused, 'STALE_TARGET');
    const r = await ctx.tc.click({ frame: shot.frame.id, mark: m.id, follow: true });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.followed?.record, 'TCK-7745');
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      acts.map((a) => [a.do, a.id]),
      [['delete', 'TCK-7745']],
    );
  });
});

describe('expect with follow', () => {
  test('expect names TCK-7741: followed after a prepend; a point that held TCK-7742 in the frame is MISSED_TARGET, not followed', async () => {
    const { run, page } = await ctx.rw.open('list');
    const row = (id: string) => page.locator('.ticket-row', { hasText: id }).locator('a.archive');
    const mine = await ctx.rw.centre(row('TCK-7741'));
    const other = await ctx.rw.centre(row('TCK-7742'));
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'prepend');
    const { image, css } = shot.frame.geometry;
    const at = (p: Point) => ({ x: (p.x * image.width) / css.width, y: (p.y * image.height) / css.height });
    const missed = await ctx.tc.click({
      frame: shot.frame.id,
      ...at(other),
      follow: true,
      expect: { context: 'TCK-7741' },
    });
    assertRefused(missed, 'MISSED_TARGET');
    assert.equal(missed.followed, undefined);
    const r = await ctx.tc.click({
      frame: shot.frame.id,
      ...at(mine),
      follow: true,
      expect: { context: 'TCK-7741' },
    });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.followed?.record, 'TCK-7741');
    assert.deepEqual(await actedOn(run), [['archive', 'TCK-7741']]);
  });
});
