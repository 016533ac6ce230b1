// trueclick/test's checkGrounding (the round trip `matrix --url` runs too) on pages that change while their
// cells are clicked: what a real app does a second after load. The truth is the page's: the recorder's log
// of trusted clicks, read from the page.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { clicksLogged, REBIND_MS, recordTargets, steadyRun } from '../../src/grounding/page.js';
import { checkGrounding } from '../../src/playwright-test.js';
import { SHIFT_C_ON_B, twoButtons } from '../helpers/two-buttons.js';

let browser: Browser;
before(async () => {
  browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
});
after(async () => {
  await browser?.close();
});

/** checkGrounding of both buttons at DPR 1, as Claude would answer. */
const ground = (url: string) =>
  checkGrounding({ browser, url, targets: ['#b', '#c'], model: 'claude', dprs: [1] });
const BOTH_HIT = [
  ['#b', true, undefined],
  ['#c', true, undefined],
];

/** The two-button page (test/helpers/two-buttons.ts) as a data: URL. */
const page = (change: string, at: number, css = '') =>
  `data:text/html,${encodeURIComponent(twoButtons(change, at, css))}`;

describe('checkGrounding on a page that changes after load', () => {
  // Found in review: the recorder kept the node it found first, so a run redone after the page re-rendered a
  // target read nothing there, and the target was reported as matching no element.
  test('a target the page re-renders (a new node in its place) is found again and clicked', async () => {
    for (const at of [1300, 1600, 1900]) {
      const r = await ground(
        page("const b = document.getElementById('b'); b.replaceWith(b.cloneNode(true));", at),
      );
      assert.deepEqual(
        r.map((x) => [x.target, x.hit, x.unclickable]),
        BOTH_HIT,
        `replaced at ${at} ms: ${JSON.stringify(r)}`,
      );
    }
  });

  // Found in review: the targets are read again after every cell, with the mouse rested; a hover style with
  // a transition (a card that lifts) was still on its way back two frames later, and read as moving.
  test('a target that lifts on hover (a CSS transition) is clicked, not reported as moving', async () => {
    const css =
      'button{transition:transform .3s} button:hover{transform:translateY(-8px)} #c{transition:transform .3s}';
    const r = await ground(page('', 0, css));
    assert.deepEqual(
      r.map((x) => [x.target, x.hit, x.unclickable]),
      BOTH_HIT,
      JSON.stringify(r),
    );
  });

  test('a target the page moved during the run and put back before its end is reported as moving', async () => {
    const r = await ground(page(SHIFT_C_ON_B, 0));
    assert.deepEqual(
      r.map((x) => [x.target, x.hit]),
      [
        ['#b', true],
        ['#c', false],
      ],
      JSON.stringify(r),
    );
    assert.match(
      r[1]?.unclickable ?? '',
      /^moving \(its box moved during the run: CSS \(300, 100\) .* → \(303, 100\)/,
    );
  });

  test('a banner that comes over the targets is reported as covering them, not as misses', async () => {
    for (const at of [1300, 1600, 1900]) {
      const r = await ground(
        page(
          "const d = document.createElement('div'); d.id = 'toast'; d.style.cssText = 'position:fixed;left:0;top:0;width:100%;height:300px;background:#0008'; document.body.append(d);",
          at,
        ),
      );
      for (const x of r)
        assert.equal(x.unclickable, 'covered by <div#toast>', `banner at ${at} ms: ${JSON.stringify(r)}`);
    }
  });
});

describe('steadyRun: a target that moves between two cells of a run', () => {
  const targets = ['#b', '#c'];
  const awayAndBack = async (p: Page, check: () => Promise<void>) => {
    await p.evaluate(() => {
      (document.getElementById('c') as HTMLElement).style.left = '700px';
    });
    await check();
    await p.evaluate(() => {
      (document.getElementById('c') as HTMLElement).style.left = '300px';
    });
  };
  const run = async (moveIn: (n: number) => boolean) => {
    const p = await browser.newPage();
    try {
      await p.goto(page('', 0));
      await recordTargets(p, targets);
      const seen: number[] = [];
      let n = 0;
      const r = await steadyRun(
        p,
        targets.length,
        async (_reading, ctx) => {
          n++;
          seen.push(ctx.seen.n);
          // A click the page itself sends (not trusted) lands in the recorder's log mid-run.
          await p.evaluate(() => document.getElementById('b')?.click());
          if (moveIn(n)) await awayAndBack(p, ctx.check);
          return n;
        },
        { rest: true, again: () => recordTargets(p, targets, REBIND_MS) },
      );
      return { ...r, seen, logged: await clicksLogged(p) };
    } finally {
      await p.close();
    }
  };

  // Found in review: the boxes were compared only before and after a run, so a carousel that turned full
  // circle within it went unseen and its cells counted as hits or misses.
  test('moved away and back within the first run only: the run is redone, and the second one holds', async () => {
    const r = await run((n) => n === 1);
    assert.equal(r.out, 2, 'two runs');
    assert.deepEqual([...r.moved], []);
    // Each run reads the recorder from where its log stood when it began: run 1's late click is not run 2's.
    assert.deepEqual(r.seen, [0, 1]);
    assert.equal(r.logged, 2);
  });

  test('moved away and back within every run: reported as moving after three runs', async () => {
    const r = await run(() => true);
    assert.equal(r.out, 3);
    assert.match(r.moved.get(1) ?? '', /^its box moved during the run: CSS \(300, 100\) .* → \(700, 100\)/);
    assert.equal(r.moved.has(0), false);
  });
});

// Found when clicks got faster: a page that re-rendered a target after the recorder found it, and before the
// first reading, left the recorder holding a node that was gone; its cells matched no element and, with no
// box to compare, nothing said the run should be redone.
test('steadyRun: a target re-rendered before the first reading is found again, not reported missing', async () => {
  const p = await browser.newPage();
  try {
    await p.goto(page('', 0));
    const targets = ['#b', '#c'];
    await recordTargets(p, targets);
    await p.evaluate(() => {
      const b = document.getElementById('b') as HTMLElement;
      b.replaceWith(b.cloneNode(true));
    });
    const { out, moved } = await steadyRun(p, targets.length, async (reading) => reading.states, {
      rest: true,
      again: () => recordTargets(p, targets, REBIND_MS),
    });
    assert.deepEqual(
      out.map((s) => s && Math.round(s.box.left)),
      [100, 300],
    );
    assert.deepEqual([...moved], []);
  } finally {
    await p.close();
  }
});
