// The living corpus: pages that change by themselves while the model thinks (ticking durations and
// prices, relative times, progress bars, spinners, a carousel, a chat, avatars that arrive late, labels
// that answer the pointer) and the same pages really moved. A click on a record that did not change goes
// through; a moved page never reaches another record. Truth: the server's action log.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { assertRefused, cmd, corpusForFile, type Point } from './harness.js';

const ctx = corpusForFile();
/** About what a model takes to answer, so live content has time to change before the click. */
const THINK_MS = 600;
const think = (ms = THINK_MS) => new Promise((r) => setTimeout(r, ms));

/** What the server recorded for a run, as [do, id] pairs, once at least one action arrived. */
async function actedOn(run: string): Promise<Array<[string | null, string | null]>> {
  return (await ctx.srv.waitForActions(1, { run })).map((a) => [a.do, a.id]);
}

function at(page: Page, selector: string, hasText?: string): Promise<Point> {
  return ctx.rw.centre((hasText ? page.locator(selector, { hasText }) : page.locator(selector)).first());
}

describe('Vue 3 job list: durations tick, times and progress move, rows keyed by index', () => {
  for (const [id, kind] of [
    ['JOB-4103', 'a plain span'],
    ['JOB-4104', 'role=timer'],
  ] as const) {
    test(`the duration in ${kind} ticks while the model thinks: Cancel of ${id} is OK and says what it set aside`, async () => {
      const { run, page } = await ctx.rw.open('jobs');
      const cancel = await at(page, `.job:has(.id:text-is("${id}")) a.cancel`);
      const shot = await ctx.tc.screenshot();
      await think();
      const r = await ctx.rw.click(shot, cancel);
      assert.equal(r.verdict, 'OK', r.message);
      assert.ok(r.setAside && r.setAside.length > 0, 'the ticking text is named');
      assert.match(r.message, /Running for/);
      assert.deepEqual(await actedOn(run), [['cancel', id]]);
    });
  }

  test('a duration the page has ticked once a second for a while is known to tick: clicked without watching it', async () => {
    const { run, page } = await ctx.rw.open('jobs', { tick: 1000 });
    const cancel = await at(page, '.job:has(.id:text-is("JOB-4103")) a.cancel');
    // The page's own log holds two ticks before the frame; the one after it is the change judged.
    await think(2100);
    const shot = await ctx.tc.screenshot();
    await think(1100);
    const r = await ctx.rw.click(shot, cancel);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.message, /Running for/);
    assert.equal(r.watchedMs, undefined, 'no look was spent watching the duration tick');
    assert.deepEqual(await actedOn(run), [['cancel', 'JOB-4103']]);
  });

  /**
   * Changes a text of the row under the point once, right after the guard is armed on it (before the press
   * arrives): as a once-a-second text does about once in a hundred clicks when it had not ticked since
   * the screenshot. In the guard's world, which shares the page's DOM; the guard itself is untouched.
   */
  const changeInFlight = async (change: string) => {
    const driver = await ctx.tc.driver();
    await driver.evaluate(`(() => {
      const g = window.__trueclick, rearm = g.rearm;
      g.rearm = (...args) => {
        const out = rearm(...args);
        g.rearm = rearm;
        // In the same task, once armed: a timer could come after the press (input goes first).
        const [, x, y] = args;
        if (out) (${change})(document.elementFromPoint(x, y).closest('.job'));
        return out;
      };
    })()`);
  };

  test('its relative time ticks in the moment between the check and the press: stopped, checked again, and that job cancelled', async () => {
    const { run, page } = await ctx.rw.open('jobs');
    const cancel = await at(page, '.job:has(.id:text-is("JOB-4103")) a.cancel');
    const shot = await ctx.tc.screenshot();
    await think();
    // "12 seconds ago" reads a second more; the element sets its own text again on its next update.
    await changeInFlight(`(row) => {
      const span = row.querySelector('relative-time').shadowRoot.querySelector('span');
      span.textContent = span.textContent.replace(/\\d+/, (n) => String(Number(n) + 1));
    }`);
    const r = await ctx.rw.click(shot, cancel);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(
      r.message,
      /^A first press was stopped in flight \(between the check and the click the page changed .*the page's handlers saw them\); checked again from the frame: Clicked/,
    );
    assert.doesNotMatch(
      r.message,
      /Blocked in flight|screenshot\.\)/,
      'the first reason is quoted once, bare',
    );
    assert.deepEqual(await actedOn(run), [['cancel', 'JOB-4103']]);
  });

  test("its job's name rewritten in place in that moment (the row shows another job): stopped, and refused when checked again", async () => {
    const { run, page } = await ctx.rw.open('jobs');
    const cancel = await at(page, '.job:has(.id:text-is("JOB-4103")) a.cancel');
    const shot = await ctx.tc.screenshot();
    await think();
    await changeInFlight(`(row) => {
      row.querySelector('.id').textContent = 'JOB-4199';
    }`);
    const r = await ctx.rw.click(shot, cancel);
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.match(
      r.message,
      /^A first press was stopped in flight .*; checked again from the frame: Not clicked/,
    );
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  for (const change of ['resort', 'prepend']) {
    test(`${change} after the screenshot (the same row elements show other jobs): refused, nothing cancelled`, async () => {
      const { run, page } = await ctx.rw.open('jobs');
      const cancel = await at(page, '.job:has(.id:text-is("JOB-4103")) a.cancel');
      const shot = await ctx.tc.screenshot();
      await cmd(page, change);
      const r = await ctx.rw.click(shot, cancel);
      assertRefused(r, 'STALE_TARGET');
      assert.match(r.message, /JOB-4103/);
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }
});

describe('a job row that opens a tab or raises a dialog while its duration ticks', () => {
  test('Logs opens a new tab (reported and followed); the server records that job', async () => {
    const { run, page } = await ctx.rw.open('jobs');
    const logs = await at(page, '.job:has(.id:text-is("JOB-4103")) a.logs');
    const shot = await ctx.tc.screenshot();
    await think();
    const r = await ctx.rw.click(shot, logs);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.newTab?.url ?? '', /do=logs&id=JOB-4103/, JSON.stringify(r.newTab));
    assert.deepEqual(await actedOn(run), [['logs', 'JOB-4103']]);
  });

  test("Restart raises the browser's confirm: reported, nothing sent until it is answered, then that job", async () => {
    const { run, page } = await ctx.rw.open('jobs');
    const restart = await at(page, '.job:has(.id:text-is("JOB-4105")) button.restart');
    const shot = await ctx.tc.screenshot();
    await think();
    const r = await ctx.rw.click(shot, restart);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.dialog?.type, 'confirm');
    assert.match(r.dialog?.message ?? '', /JOB-4105/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    await ctx.tc.handleDialog(true);
    assert.deepEqual(await actedOn(run), [['restart', 'JOB-4105']]);
  });
});

describe('AG Grid watchlist: prices tick in every row', () => {
  test('Buy on a row whose price ticked is OK; with strict, the same click is refused', async () => {
    let { run, page } = await ctx.rw.open('prices');
    let buy = await at(page, '.ag-row:has([col-id="symbol"]:text-is("GRNT")) a.buy');
    let shot = await ctx.tc.screenshot();
    await think();
    let r = await ctx.rw.click(shot, buy);
    // The grid redraws its cells every 150 ms: one redrawn between trueclick's press and release gets no
    // click from the browser (seen once in a CI run on 2 busy cores). trueclick says so, nothing is bought,
    // and the agent does what the answer says: a new screenshot, and the click again.
    if (r.verdict === 'LANDED_ELSEWHERE' && /the browser sent no click/.test(r.message)) {
      assert.deepEqual(await ctx.rw.actionsAfter(run), [], 'a click the browser never sent bought nothing');
      buy = await at(page, '.ag-row:has([col-id="symbol"]:text-is("GRNT")) a.buy');
      shot = await ctx.tc.screenshot();
      await think();
      r = await ctx.rw.click(shot, buy);
    }
    assert.equal(r.verdict, 'OK', r.message);
    assert.deepEqual(await actedOn(run), [['buy', 'GRNT']]);

    ({ run, page } = await ctx.rw.open('prices'));
    buy = await at(page, '.ag-row:has([col-id="symbol"]:text-is("GRNT")) a.buy');
    const row = page.locator('.ag-row:has([col-id="symbol"]:text-is("GRNT"))').first();
    shot = await ctx.tc.screenshot();
    const before = await row.textContent();
    await think();
    // Prices tick at random: on busy cores GRNT's may hold for the whole think; strict needs it changed.
    for (let i = 0; i < 50 && (await row.textContent()) === before; i++) await think(100);
    const { image, css } = shot.frame.geometry;
    const strict = await ctx.tc.click({
      frame: shot.frame.id,
      x: (buy.x * image.width) / css.width,
      y: (buy.y * image.height) / css.height,
      strict: true,
    });
    assertRefused(strict, 'STALE_TARGET');
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  for (const sortvia of ['grid', 'data']) {
    test(`re-sorted by price (sortvia=${sortvia}) while prices tick: refused, nothing bought`, async () => {
      const { run, page } = await ctx.rw.open('prices', { sortvia });
      const buy = await at(page, '.ag-row:has([col-id="symbol"]:text-is("GRNT")) a.buy');
      const shot = await ctx.tc.screenshot();
      await cmd(page, 'resort');
      const r = await ctx.rw.click(shot, buy);
      assertRefused(r, 'STALE_TARGET');
      assert.deepEqual(await ctx.rw.actionsAfter(run), []);
    });
  }
});

/**
 * The grid's tick, as the page's own interval runs it: every row's data again through the transaction API,
 * so AG Grid draws each Buy link anew (its cell renderer returns markup). The prices stay, so the record is
 * the one the frame showed.
 */
function redrawRows(page: Page): Promise<void> {
  return page.evaluate(() => {
    const api = (window as unknown as { rw: { api: AgGridApi } }).rw.api;
    const update: unknown[] = [];
    api.forEachNode((n) => update.push({ ...(n.data as object) }));
    api.applyTransaction({ update });
  });
}
type AgGridApi = {
  forEachNode(f: (n: { data: unknown }) => void): void;
  applyTransaction(t: { update: unknown[] }): void;
};

/**
 * Buy on GRNT through trueclick, on /rw/prices with its own ticks off. With `tick`, the grid's tick lands
 * between trueclick's press and its release: the press is sent and acknowledged, the page redraws its rows,
 * then the release goes (on a busy machine a tick lands there by itself about once in thirty clicks). The
 * presses trueclick sent are counted.
 */
async function buyGrntWith(tick: boolean) {
  const { run, page } = await ctx.rw.open('prices', { tick: 1e9 });
  const buy = await at(page, '.ag-row:has([col-id="symbol"]:text-is("GRNT")) a.buy');
  const shot = await ctx.tc.screenshot();
  const driver = await ctx.tc.driver();
  const input = driver.input.bind(driver);
  let pressed = 0;
  let ticked: Promise<void> = Promise.resolve();
  driver.input = (async (method: string, params: { type?: string }) => {
    if (params.type === 'mousePressed') {
      pressed++;
      const sent = input(method as never, params as never);
      // The release is sent right behind the press: it waits for the press's acknowledgement and the tick.
      if (tick) ticked = sent.then(() => redrawRows(page));
      return sent;
    }
    if (params.type === 'mouseReleased') await ticked;
    return input(method as never, params as never);
  }) as typeof driver.input;
  try {
    return { run, r: await ctx.rw.click(shot, buy), pressed };
  } finally {
    driver.input = input;
  }
}

describe('AG Grid: the grid draws the pressed link anew before the release (the browser sends no click)', () => {
  // Not pressed again: a page that acted on the press and then redrew looks the same from here.
  test('a tick between the press and the release: LANDED_ELSEWHERE says the link was drawn anew; pressed once, nothing bought', async () => {
    const { run, r, pressed } = await buyGrntWith(true);
    assert.equal(r.verdict, 'LANDED_ELSEWHERE', r.message);
    assert.equal(pressed, 1, 'one press only');
    assert.match(
      r.message,
      /the browser sent no click: the page drew it anew between the press and the release/,
    );
    assert.match(r.landed?.context ?? '', /GRNT/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('the same click without the tick: OK, GRNT bought', async () => {
    const { run, r, pressed } = await buyGrntWith(false);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(pressed, 1);
    assert.deepEqual(await actedOn(run), [['buy', 'GRNT']]);
  });
});

describe('a Lit app that is one custom element (everything in its shadow root)', () => {
  test('"Following" reads "Unfollow" under trueclick\'s own pointer: OK, the click lands inside the app', async () => {
    const { run, page } = await ctx.rw.open('people');
    await page.mouse.move(5, 5);
    const follow = await at(page, '.person:has(.handle:text-is("@alan")) a.follow');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, follow, { context: 'Alan Turing' });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.landed?.tag, 'a');
    assert.match(r.landed?.context ?? '', /Alan Turing/);
    assert.match(r.message, /Unfollow/);
    assert.deepEqual(await actedOn(run), [['unfollow', 'alan']]);
  });

  test('accounts re-sorted inside the component: refused, naming the account it held', async () => {
    const { run, page } = await ctx.rw.open('people');
    await page.mouse.move(5, 5);
    const follow = await at(page, '.person:has(.handle:text-is("@alan")) a.follow');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await ctx.rw.click(shot, follow);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.message, /Alan Turing/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('a message appended below the one clicked: Reply is OK', async () => {
    const { run, page } = await ctx.rw.open('people');
    const reply = await at(page, '.msg', 'build is green');
    const link = { x: reply.x + 180, y: reply.y };
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'say');
    await cmd(page, 'say');
    const r = await ctx.rw.click(shot, link);
    assert.equal(r.verdict, 'OK', r.message);
    assert.deepEqual(await actedOn(run), [['reply', 'MSG-502']]);
  });
});

describe('Vue 3 sheet: rows told apart only by their inputs', () => {
  test('still: "Delete row" of TCK-7741 deletes TCK-7741', async () => {
    const { run, page } = await ctx.rw.open('sheet');
    const del = await at(page, '.sheet-row:nth-child(6) button');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, del);
    assert.equal(r.verdict, 'OK', r.message);
    assert.deepEqual(await actedOn(run), [['delete', 'TCK-7741']]);
  });

  test('the values rotated into the same inputs: refused, naming both ids, nothing deleted', async () => {
    const { run, page } = await ctx.rw.open('sheet');
    const del = await at(page, '.sheet-row:nth-child(6) button');
    const shot = await ctx.tc.screenshot();
    assert.deepEqual((await cmd<string[]>(page, 'resort')).slice(5, 6), ['TCK-7736']);
    const r = await ctx.rw.click(shot, del);
    assertRefused(r, 'STALE_TARGET');
    assert.match(r.message, /TCK-7741/);
    assert.match(r.message, /TCK-7736/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('a feed: avatars that arrive late, a carousel that advances beside the stories', () => {
  test('the avatar arrived and the carousel moved since the screenshot: Read is OK', async () => {
    const { run, page } = await ctx.rw.open('feed', { late: 300 });
    const read = await at(page, '.story', 'TCK-7740');
    const link = { x: read.x + 280, y: read.y };
    const shot = await ctx.tc.screenshot();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('.story img')).every(
        (i) => (i as HTMLImageElement).complete && i.getAttribute('src'),
      ),
    );
    const r = await ctx.rw.click(shot, link);
    assert.equal(r.verdict, 'OK', r.message);
    assert.deepEqual(await actedOn(run), [['read', 'TCK-7740']]);
  });

  test('the slide advanced under the point: refused, nothing viewed', async () => {
    const { run, page } = await ctx.rw.open('feed', { interval: 1500 });
    const view = await at(page, '.carousel-item.active a.view');
    const shot = await ctx.tc.screenshot();
    await page.waitForFunction(
      () => document.querySelector('.carousel-item.active h5')?.textContent !== 'Release SLD-1',
    );
    await page.waitForTimeout(700);
    const r = await ctx.rw.click(shot, view);
    assertRefused(r, /STALE_TARGET|COVERED/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('Ionic upload queue (Stencil components, progress rising in every row)', () => {
  test('Open of TCK-7740 while its progress bar rises: OK', async () => {
    const { run, page } = await ctx.rw.open('ionic');
    const open = await at(page, 'ion-item:has(ion-label:text("TCK-7740")) ion-button');
    const shot = await ctx.tc.screenshot();
    await think();
    const r = await ctx.rw.click(shot, open);
    assert.equal(r.verdict, 'OK', r.message);
    assert.deepEqual(await actedOn(run), [['open', 'TCK-7740']]);
  });

  test('other uploads written into the same items: refused, nothing opened', async () => {
    const { run, page } = await ctx.rw.open('ionic');
    const open = await at(page, 'ion-item:has(ion-label:text("TCK-7740")) ion-button');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await ctx.rw.click(shot, open);
    assertRefused(r, 'STALE_TARGET');
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('Vue 3 colour picker: rows the DOM cannot tell apart (their colour is only in a style)', () => {
  test('still: "Use" of the third colour posts it, and the pixels vouched for it', async () => {
    const { run, page } = await ctx.rw.open('swatches');
    const use = await at(page, '.swatch-row:nth-child(3) button');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, use);
    assert.equal(r.verdict, 'OK', r.message);
    assert.match(r.pixels?.why ?? '', /nothing in the DOM tells/);
    assert.deepEqual(await actedOn(run), [['colour', 'cfd3d7']]);
  });

  test('the colours rotated into the same rows: refused by their pixels, nothing posted', async () => {
    const { run, page } = await ctx.rw.open('swatches');
    const use = await at(page, '.swatch-row:nth-child(3) button');
    const shot = await ctx.tc.screenshot();
    await cmd(page, 'resort');
    const r = await ctx.rw.click(shot, use);
    assertRefused(r, 'STALE_TARGET');
    assert.ok(r.pixels, 'the pixel guard judged it');
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});

describe('a row that shows an action where its time was while hovered (as mail lists do)', () => {
  test('Cancel in a hovered row is OK: the row answered the pointer, the job is the same', async () => {
    const { run, page } = await ctx.rw.open('jobs');
    await page.mouse.move(5, 5);
    const cancel = await at(page, '.job:has(.id:text-is("JOB-4105")) a.cancel');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, cancel);
    assert.equal(r.verdict, 'OK', r.message);
    assert.ok(
      r.setAside?.some((s) => s.why === 'hover'),
      `the hover's answer is named: ${JSON.stringify(r.setAside)}`,
    );
    assert.deepEqual(await actedOn(run), [['cancel', 'JOB-4105']]);
  });

  test('the time the model meant is replaced by "Retry" under the pointer: COVERED, nothing retried or opened', async () => {
    const { run, page } = await ctx.rw.open('jobs');
    await page.mouse.move(5, 5);
    const when = await at(page, '.job:has(.id:text-is("JOB-4105")) a.when');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, when);
    assertRefused(r, 'COVERED');
    assert.match(r.message, /Retry/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });
});
