// A Playwright Test suite that fails in CI, not on a laptop: the scale-factor grounding check of trueclick/test
// on a page of your app. Here trueclick's own fixture server (a Bootstrap 5 page) stands in for the app.
import { expect, test } from '@playwright/test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
// In your project: import { checkGrounding, expectGrounded } from 'trueclick/test';
import { checkGrounding, expectGrounded } from '../../src/playwright-test.js';

let app: FixtureServer;
test.beforeAll(async () => {
  app = await startFixtureServer();
});
test.afterAll(async () => {
  await app.close();
});

test('the ticket table is clickable from a Claude screenshot at DPR 1, 1.5 and 2', async ({ browser }) => {
  const results = await expectGrounded({
    browser,
    url: app.url('/rw/overlays'),
    targets: ['#new', 'name=Export', '#tickets tr:nth-child(4) .archive'],
    model: 'claude',
  });
  expect(results).toHaveLength(9);
});

test('Gemini and Qwen2.5-VL answers, with the toast up: the covered button is reported, not clicked', async ({
  browser,
}) => {
  for (const model of ['gemini', 'qwen2.5-vl'] as const) {
    const results = await checkGrounding({
      browser,
      url: app.url('/rw/overlays'),
      targets: ['#export', 'name=Undo'],
      model,
      dprs: [2],
      prepare: (page) =>
        page.evaluate(() => (window as unknown as { rw: { showToast(): Promise<void> } }).rw.showToast()),
    });
    const byTarget = Object.fromEntries(results.map((r) => [r.target, r]));
    expect(byTarget['name=Undo']?.hit).toBe(true);
    expect(byTarget['#export']?.hit).toBe(false);
    expect(byTarget['#export']?.unclickable).toMatch(/^covered by .*toast/);
  }
});

test('a row menu that opens on hover (Tippy.js): prepare hovers "More", and the menu’s link is reached', async ({
  browser,
}) => {
  const results = await expectGrounded({
    browser,
    url: app.url('/rw/hover'),
    targets: ['.row-menu .archive'],
    model: 'claude',
    dprs: [2],
    // The menu is in the document only while the pointer is over "More" or the menu.
    prepare: (page) => page.hover('.hover-row >> nth=1 >> .more'),
  });
  expect(results).toHaveLength(1);
});
