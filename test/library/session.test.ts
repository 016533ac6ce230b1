import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { typeOutcome } from '../../src/actions/verbs/keys.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { captureFrame } from '../../src/browser/snapshot/capture.js';
import { ActionError, trueclickForPage } from '../../src/index.js';
import { imageAt, librarySession } from '../helpers/library.js';

const ctx = librarySession({ deviceScaleFactor: 2 });

/** Reloads the page once, right before the session's first `method` command goes out. */
async function reloadBefore(method: string) {
  const driver = await ctx.session.driver();
  const send = driver.send.bind(driver);
  let reloaded = false;
  driver.send = (async (m: string, params?: unknown, budget?: number) => {
    if (!reloaded && m === method) {
      reloaded = true;
      await driver.page.reload();
    }
    return send(m as never, params as never, budget);
  }) as typeof driver.send;
  return {
    reloaded: () => reloaded,
    restore: () => {
      driver.send = send;
    },
  };
}

describe('library: a text the page wrote once is not a ticking one', () => {
  test('a parsed row whose priority flipped once after the screenshot is refused, not set aside as ticking', async () => {
    // The parser putting the row's text in is not a change of it: counted as one, a single flip within
    // 10 s of the load read as "changed twice lately" and was set aside as a ticking text.
    const run = 'flip-once';
    await ctx.session.navigate(ctx.srv.url('/tickets', { run }));
    const shot = await ctx.session.screenshot();
    const page = (await ctx.session.driver()).page;
    await page.locator('#row-TCK-7741 .prio').evaluate((el) => {
      el.textContent = 'Low';
    });
    const r = await ctx.session.click({
      ...imageAt(shot, { x: 1180, y: 148 }),
    });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.match(r.message, /High/);
    await new Promise((res) => setTimeout(res, 200));
    assert.deepEqual(ctx.srv.hits({ run, type: 'click' }), []);
  });
});

describe('library: what a press did', () => {
  const press = async (run: string, query: Record<string, number> = {}) => {
    await ctx.session.navigate(ctx.srv.url('/counter', { run, ...query }));
    const shot = await ctx.session.screenshot();
    return ctx.session.click({
      ...imageAt(shot, { x: 120, y: 120 }),
    });
  };
  const status = async () => (await ctx.session.driver()).page.locator('#status').textContent();

  test('text rewritten elsewhere in place is said, as it reads now', async () => {
    const r = await press('fx-counter');
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(await status(), '1 items in the cart');
    assert.deepEqual(r.effect, { kind: 'changed', what: ['text elsewhere now reads "1 items in the cart"'] });
    assert.match(r.message, /text elsewhere now reads "1 items in the cart"/);
  });

  test('a change that comes later is not claimed: none, saying later changes are not watched', async () => {
    const r = await press('fx-counter-late', { late: 400 });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.effect?.kind, 'none', JSON.stringify(r.effect));
    assert.match(r.message, /in the first \d+ ms after it \(later changes are not watched\)/);
    await (await ctx.session.driver()).page.locator('#status', { hasText: '1 items' }).waitFor();
  });
});

describe('library: the session the MCP tools use', () => {
  test('NaN and Infinity are refused with a typed error, and nothing is clicked', async () => {
    await ctx.session.navigate(ctx.srv.url('/approve', { run: 'nan' }));
    const shot = await ctx.session.screenshot();
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      await assert.rejects(ctx.session.click({ frame: shot.frame.id, x: bad, y: 100 }), (err: unknown) => {
        assert.ok(err instanceof ActionError, String(err));
        assert.match(err.code, /NOT_A_NUMBER|NOT_FINITE/);
        assert.match(`${err.message} ${err.hint}`, /finite|number/i);
        return true;
      });
    }
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(ctx.srv.hits({ run: 'nan', type: 'click' }).length, 0);
  });

  test('a closed tab: the click is refused with what to do, the next call opens a new tab and says so', async () => {
    await ctx.session.navigate(ctx.srv.url('/approve', { run: 'closed' }));
    const shot = await ctx.session.screenshot();
    const driver = await ctx.session.driver();
    await driver.page.close();
    // The frame belongs to a tab that is gone: refused, never clicked somewhere else.
    await assert.rejects(
      ctx.session.click({ frame: shot.frame.id, x: 10, y: 10 }),
      /can no longer be used: the tab it shows closed/,
    );
    assert.match(ctx.session.takeNotice() ?? '', /started a new one/);
    await ctx.session.navigate(ctx.srv.url('/approve', { run: 'closed-2' }));
    const again = await ctx.session.screenshot();
    const r = await ctx.session.click({
      frame: again.frame.id,
      x: (1102 * again.frame.geometry.image.width) / 1280,
      y: (636 * again.frame.geometry.image.height) / 800,
    });
    assert.equal(r.verdict, 'OK', r.message);
  });

  test('a browser that went away is relaunched on the next call, and the agent is told', async () => {
    const driver = await ctx.session.driver();
    await driver.page.context().browser()?.close();
    await ctx.session.navigate(ctx.srv.url('/approve', { run: 'crashed' }));
    assert.match(ctx.session.takeNotice() ?? '', /started a new one/);
    const shot = await ctx.session.screenshot();
    assert.equal(shot.frame.geometry.devicePixelRatio, 2, 'the relaunched browser keeps the session options');
  });

  test('a page that reloads itself while it is captured: every screenshot answers', async () => {
    // A capture sent as the next document commits is never answered by Chromium, and the old document's
    // world is gone under the capture's own reads: both must be taken again, not reported as failures.
    // Each document lives 400 ms after its scripts ran: at 200 ms, on two cores busy with other test files,
    // a capture could lose to the next commit for its whole 10 s budget (CI saw four losses in a row).
    await ctx.session.navigate(ctx.srv.url('/nav-a', { run: 'reload', reload: 400 }));
    const loaders = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const shot = await ctx.session.screenshot();
      assert.match(shot.frame.capture.url, /\/nav-a\?/);
      loaders.add(shot.frame.capture.loaderId);
    }
    assert.ok(loaders.size > 3, `the page reloaded while it was captured (${loaders.size} documents)`);
  });

  // Seen in the bench on two overloaded cores: a capture that took 7.8 s of its 10 left 1 ms to the layout
  // read after it, which failed ("did not answer within 1 ms") though the image was taken.
  test('a screenshot whose budget ran out during the capture still gets its last reads, not a 1 ms timeout', async () => {
    await ctx.session.navigate(ctx.srv.url('/blank', { run: 'spent' }));
    const driver = await ctx.session.driver();
    const c = await captureFrame(driver, { budgetMs: 1 });
    assert.ok(c.image.width > 0, 'the image');
    assert.ok((await c.snapshot).topmostAt(640, 400), 'its record');
    assert.equal(driver.timedOut, false, 'the page is not taken for stuck');
  });

  test('navigating away from a page that reloads itself ends on the page asked for', async () => {
    // The page's reload, begun as the agent's navigation starts, replaces it or aborts it (net::ERR_ABORTED).
    const ends: string[] = [];
    for (let i = 0; i < 30; i++) {
      await ctx.session.navigate(ctx.srv.url('/nav-a', { run: 'leave', reload: 200 }));
      await new Promise((r) => setTimeout(r, (i * 37) % 250));
      const r = await ctx.session.navigate(ctx.srv.url('/type', { run: 'leave' }));
      ends.push(new URL(r.url).pathname);
    }
    assert.deepEqual(
      ends.filter((p) => p !== '/type'),
      [],
    );
    assert.match((await ctx.session.driver()).page.url(), /\/type\?/);
  });

  test('the page loads a new document while the click is checked: refused as such, nothing clicked in either', async () => {
    // /nav-a reloaded draws the same heading at the same place: only the document tells the two apart.
    const url = ctx.srv.url('/nav-a', { run: 'reload-under' });
    await ctx.session.navigate(url);
    const shot = await ctx.session.screenshot();
    const hook = await reloadBefore('Runtime.evaluate');
    try {
      const r = await ctx.session.click({
        ...imageAt(shot, { x: 80, y: 75 }),
      });
      assert.equal(hook.reloaded(), true);
      assert.equal(r.verdict, 'STALE_TARGET', r.message);
      assert.match(r.message, /loaded a new document/);
      assert.equal(r.dispatched, null);
    } finally {
      hook.restore();
    }
    await new Promise((r) => setTimeout(r, 150));
    assert.deepEqual(ctx.srv.hits({ run: 'reload-under', type: 'pointerdown' }), []);
  });

  test('the page reloads between the click on a field and the keys: none typed into the new document, and said', async () => {
    await ctx.session.navigate(ctx.srv.url('/type', { run: 'type-reload' }));
    const shot = await ctx.session.screenshot();
    const box = await ctx.session.driver().then((d) => d.page.locator('#name').boundingBox());
    assert.ok(box);
    const k = shot.frame.geometry.image.width / shot.frame.geometry.css.width;
    const driver = await ctx.session.driver();
    const input = driver.input.bind(driver);
    driver.input = (async (method: string, params: { type?: string }) => {
      const sent = await input(method as never, params as never);
      if (params.type === 'mouseReleased') await driver.page.reload();
      return sent;
    }) as typeof driver.input;
    try {
      const r = await ctx.session.type('hello', {
        target: { frame: shot.frame.id, x: (box.x + 20) * k, y: (box.y + box.height / 2) * k },
      });
      assert.equal(r.click?.verdict, 'OK', r.click?.message);
      assert.equal(r.typed, 0);
      assert.match(r.newDocument ?? '', /loaded a new document/);
    } finally {
      driver.input = input;
    }
    await new Promise((r) => setTimeout(r, 150));
    assert.deepEqual(ctx.srv.hits({ run: 'type-reload', type: 'keydown' }), []);
    assert.equal(await driver.page.inputValue('#name'), '');
  });

  test('typing with no target while nothing has focus is said (UNVERIFIED), not "into the focused element"', async () => {
    await ctx.session.navigate(ctx.srv.url('/type', { run: 'unfocused' }));
    const page = (await ctx.session.driver()).page;
    const loose = await ctx.session.type('abc', {});
    assert.equal(loose.unfocused, true);
    const said = typeOutcome(loose, 'abc');
    assert.equal(said.verdict, 'UNVERIFIED');
    assert.match(said.message, /with nothing focused: the keys went to the page itself, into no field/);
    await page.focus('#name');
    const focused = await ctx.session.type('abc', {});
    assert.equal(focused.unfocused, undefined);
    assert.deepEqual(typeOutcome(focused, 'abc'), {
      verdict: 'OK',
      message: 'Typed "abc" into the focused element.',
    });
    assert.equal(await page.inputValue('#name'), 'abc');
  });

  test('a zoom into a frame while the tab loads a new document is refused, not a zoom of the new one', async () => {
    await ctx.session.navigate(ctx.srv.url('/nav-a', { run: 'zoom-reload' }));
    const shot = await ctx.session.screenshot();
    const hook = await reloadBefore('Page.captureScreenshot');
    try {
      await assert.rejects(
        ctx.session.zoom({ frame: shot.frame.id, region: [0, 0, 400, 300] }),
        (err: Error & { code?: string }) =>
          err.code === 'FRAME_OUTDATED' && /while trueclick zoomed/.test(err.message),
      );
      assert.equal(hook.reloaded(), true);
    } finally {
      hook.restore();
    }
  });

  test('trueclickForPage: a Playwright Page gets guarded clicks with the same verdicts', async () => {
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(ctx.srv.url('/approve', { run: 'pw' }));
      const tc = await trueclickForPage(page);
      const shot = await tc.screenshot();
      const r = await tc.click({
        ...imageAt(shot, { x: 1102, y: 636 }),
        expect: { text: 'Approve' },
      });
      assert.equal(r.verdict, 'OK', r.message);
      assert.equal(r.landed?.id, 'approve');
      assert.equal(
        await page.evaluate(() => (window as unknown as { __approved?: boolean }).__approved),
        true,
      );
      await tc.close();
    } finally {
      await browser.close();
    }
  });
});

describe('library: a release refused before it was sent', () => {
  test('leaves the button held and says so; the release at a current frame then clicks', async () => {
    const run = 'held';
    await ctx.session.navigate(ctx.srv.url('/tickets', { run }));
    const shot = await ctx.session.screenshot();
    const at = {
      ...imageAt(shot, { x: 1180, y: 148 }),
    };
    const down = await ctx.session.press(at);
    assert.equal(down.verdict, 'OK', down.message);
    const refused = await ctx.session.releaseButton({ ...at, frame: 'f999' }).catch((e: Error) => e);
    assert.ok(refused instanceof ActionError, String(refused));
    assert.equal(refused.code, 'UNKNOWN_FRAME');
    assert.match(refused.message, /left button is still held down/);
    assert.equal(ctx.session.buttonHeld, true);
    assert.deepEqual(ctx.srv.hits({ run, type: 'click' }), []);
    const up = await ctx.session.releaseButton(at);
    assert.equal(up.verdict, 'OK', up.message);
    assert.equal(ctx.session.buttonHeld, false);
    await ctx.srv.waitForHits(1, { run, type: 'click' });
  });
});

describe('library: waiting for text to go', () => {
  test("a reload's blank moment is not the text gone: it is there again once the page loaded", async () => {
    // The rows are rendered by the page's script (a framework list): a reloaded document is empty at first.
    await ctx.session.navigate(ctx.srv.url('/rw/list', { run: 'gone-reload' }));
    const page = (await ctx.session.driver()).page;
    await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true);
    const waited = ctx.session.waitFor({ textGone: 'TCK-7741', timeout: 2 });
    await new Promise((r) => setTimeout(r, 200));
    await page.reload();
    const r = await waited;
    assert.equal(r.met, false, `waited ${r.waitedMs} ms`);
    assert.ok(await page.getByText('TCK-7741').first().isVisible(), 'the text is there after the reload');
  });
});
