import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PageDriver } from '../../src/browser/plumbing/page-driver.js';
import { SNAPSHOT_STYLES, SnapshotIndex } from '../../src/browser/snapshot/snapshot.js';
import type { Snapshot } from '../../src/browser/snapshot/snapshot-doc.js';
import { measureKept } from '../../src/browser/snapshot/snapshot-measure.js';
import { readViewRecord } from '../../src/browser/snapshot/view-record.js';
import { librarySession } from '../helpers/library.js';

// The viewport walk (view-record.ts) stands in for the DOM snapshot on large pages. The truth here is
// Chromium's own snapshot of the same page at the same moment: both read into the one index, every point of
// the viewport must name the same element with the same facts.

const ctx = librarySession({ deviceScaleFactor: 2 });

interface Both {
  snapshot: SnapshotIndex;
  walk: SnapshotIndex;
  view: { x: number; y: number; width: number; height: number };
}

const snapshotOf = (driver: PageDriver): Promise<Snapshot> =>
  driver.send('DOMSnapshot.captureSnapshot', {
    computedStyles: [...SNAPSHOT_STYLES],
    includePaintOrder: true,
    includeDOMRects: false,
  });

/**
 * The walk, with a DOM snapshot taken before and after it: when the two snapshots differ, the page itself
 * changed between the reads (an icon's SVG swapped in by its component) and all three are read again.
 */
async function bothOf(driver: PageDriver): Promise<Both | null> {
  for (let tries = 1; ; tries++) {
    const m = await driver.send('Page.getLayoutMetrics', {});
    const cssW = m.cssContentSize.width;
    const before = await snapshotOf(driver);
    const walked = await readViewRecord(driver, await driver.isolatedWorld(), cssW, 30_000);
    const after = await snapshotOf(driver);
    if (!walked) return null;
    const vv = m.cssVisualViewport;
    const view = { x: vv.pageX, y: vv.pageY, width: vv.clientWidth, height: vv.clientHeight };
    const index = async (s: Snapshot) => {
      const i = new SnapshotIndex(s, (s.documents[0]?.contentWidth ?? cssW) / cssW, [], view);
      await measureKept(i, () => ({ driver, frameId: driver.mainFrameId }), 3_000);
      return i;
    };
    const snapshot = await index(before);
    const moved = differing({ snapshot, walk: await index(after), view }).length > 0;
    if (!moved || tries === 5) return { snapshot, walk: await index(walked), view };
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The points of the viewport (a grid, CSS px) where the two indexes name different elements or facts. */
function differing({ snapshot, walk, view }: Both): string[] {
  const key = (i: SnapshotIndex, x: number, y: number) => {
    const e = i.topmostAt(view.x + x, view.y + y);
    if (!e) return 'nothing';
    const { rect, actionable, ...facts } = e.facts;
    return JSON.stringify({ ...facts, actionable: actionable && { ...actionable, rect: undefined } });
  };
  const out: string[] = [];
  for (let y = 4; y < view.height; y += 23)
    for (let x = 4; x < view.width; x += 29) {
      const [a, b] = [key(snapshot, x, y), key(walk, x, y)];
      if (a !== b) out.push(`(${x}, ${y}): snapshot ${a.slice(0, 200)}; walk ${b.slice(0, 200)}`);
    }
  return out;
}

/** Stops a page's clocks and animations, so both reads see one page (Shoelace's icons arrive by fetch). */
async function still(driver: PageDriver): Promise<void> {
  await driver.page.waitForLoadState('networkidle');
  await driver.page.addStyleTag({ content: '*, *::before, *::after { animation: none !important; }' });
  await driver.page.evaluate(() => {
    const last = setTimeout(() => {}, 0) as unknown as number;
    for (let i = 0; i <= last; i++) {
      clearTimeout(i);
      clearInterval(i);
    }
  });
  await new Promise((r) => setTimeout(r, 100));
}

describe('the viewport walk reads what a DOM snapshot reads', () => {
  // Real UI libraries (AG Grid, Shoelace, Bootstrap, Tippy, Sortable, Ionic…) and the fixtures of odd shapes.
  const pages = [
    '/rw/grid',
    '/rw/list',
    '/rw/forms',
    '/rw/components',
    '/rw/dialogs',
    '/rw/overlays',
    '/rw/hover',
    '/rw/inbox',
    '/rw/jobs',
    '/rw/people',
    '/rw/prices',
    '/rw/sortable',
    '/rw/sticky',
    '/rw/tabs',
    '/rw/transform',
    '/rw/scroll',
    '/rw/popover',
    '/rw/sheet',
    '/rw/feed',
    '/rw/chart',
    '/rw/ionic',
    '/tickets',
    '/covered',
    '/boxes',
    '/scrollbar',
    '/text',
  ];
  for (const path of pages)
    test(`${path}: every point names the same element`, async () => {
      await ctx.session.navigate(ctx.srv.url(path));
      const driver = await ctx.session.driver();
      await still(driver);
      const both = await bothOf(driver);
      assert.ok(both, 'no frame is in view');
      assert.deepEqual(differing(both), []);
    });

  test('scrolled far down a large page, rows and controls in view are read, and their records', async () => {
    await ctx.session.navigate(ctx.srv.url('/many', { n: '6000' }));
    const driver = await ctx.session.driver();
    await driver.page.evaluate(() => scrollTo(0, 5_000));
    const both = await bothOf(driver);
    assert.ok(both);
    assert.equal(both.view.y, 5_000);
    assert.deepEqual(differing(both), []);
    // The walk keeps what the viewport shows: its elements, not the page's 13 000.
    const kept = [...both.walk.elements(both.view)].length;
    assert.ok(kept > 100 && kept < 3_000, `${kept} elements kept`);
  });

  test('a caption laid over an image, a canvas and a video (Bootstrap flex rows): the caption is on top', async () => {
    // A replaced element clips its own content without a paint layer: later content over it paints above it.
    await ctx.session.navigate(ctx.srv.url('/rw/checkout'));
    const driver = await ctx.session.driver();
    await driver.page.evaluate(() => {
      const img = `<img class="rounded" width="300" height="60" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='6' height='6'%3E%3Crect width='6' height='6' fill='%23468'/%3E%3C/svg%3E">`;
      const media = [
        img,
        '<canvas width="300" height="60"></canvas>',
        '<video width="300" height="60"></video>',
      ];
      document.body.insertAdjacentHTML(
        'afterbegin',
        media
          .map(
            (m, i) =>
              `<div class="d-flex mt-2">${m}</div><div class="ps-2" style="margin-top:-40px"><a href="/rw/act?do=open&id=${i}" class="link-light">Caption ${i} over the picture</a></div>`,
          )
          .join(''),
      );
    });
    await still(driver);
    const both = await bothOf(driver);
    assert.ok(both);
    assert.deepEqual(differing(both), []);
    const captions = [...both.walk.elements(both.view)].filter(
      (el) => el.facts.tag === 'A' && /^Caption/.test(el.facts.text),
    );
    assert.equal(captions.length, 3);
    for (const el of captions) {
      const { x, y, width, height } = el.bounds;
      const at = both.walk.topmostAt(x + width / 2, y + height / 2);
      assert.equal(at?.facts.text, el.facts.text, 'a point on the caption names the caption');
    }
  });

  test('a positioned ::after over a card (Bootstrap stretched-link): the walk gives way', async () => {
    await ctx.session.navigate(ctx.srv.url('/rw/checkout'));
    const driver = await ctx.session.driver();
    await driver.page.evaluate(() => {
      const card = document.createElement('div');
      card.className = 'card';
      card.style.cssText = 'position:fixed;left:40px;top:40px;width:300px;height:200px;z-index:10';
      card.innerHTML =
        '<div class="card-body"><h5>Order 1042</h5><a id="open" class="stretched-link" href="/rw/act?do=open">Open</a></div>';
      document.body.append(card);
    });
    const m = await driver.send('Page.getLayoutMetrics', {});
    const cssW = m.cssContentSize.width;
    const snap = await snapshotOf(driver);
    const vv = m.cssVisualViewport;
    const index = new SnapshotIndex(snap, (snap.documents[0]?.contentWidth ?? cssW) / cssW);
    // Chromium's record: a point of the card far from the link's text is the link, whose ::after covers it.
    assert.equal(index.topmostAt(vv.pageX + 300, vv.pageY + 220)?.facts.tag, 'A');
    assert.equal(await readViewRecord(driver, await driver.isolatedWorld(), cssW, 30_000), null);
    await driver.page.evaluate(() => document.getElementById('open')?.classList.remove('stretched-link'));
    assert.ok(
      await readViewRecord(driver, await driver.isolatedWorld(), cssW, 30_000),
      'without the ::after the walk reads the page',
    );
  });

  test('a frame in view: the walk gives way (a DOM snapshot reads the frame document)', async () => {
    await ctx.session.navigate(ctx.srv.url('/rw/nest'));
    const driver = await ctx.session.driver();
    const m = await driver.send('Page.getLayoutMetrics', {});
    assert.equal(
      await readViewRecord(driver, await driver.isolatedWorld(), m.cssContentSize.width, 30_000),
      null,
    );
  });
});
