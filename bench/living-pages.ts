// The living corpus as the living section reads it (fixtures/realweb: jobs, prices, people, sheet, feed,
// swatches, ionic, inbox, echarts): each page's rows, the target in a row, the action it sends, the page's own
// command that moves the rows, and the record under a point, read from the page.
import type { Page } from 'playwright-core';
import type { FixtureServer } from '../fixtures/server.js';
import { sleep } from './stats.js';

export const ROWS = 6;

export interface Subject {
  page: string;
  query?: Record<string, string | number>;
  /** The row elements, in order (Playwright selector: pierces open shadow roots). */
  rows: string;
  /** The target inside a row. */
  target: string;
  /** The action the target sends, and the row's key in it. */
  act: string;
  /** The page's own command that moves the rows (window.rw). */
  move: string;
  /** What lives on the page while nothing moves. */
  lives: string;
  /** Its name in the results, where one page is measured twice (ECharts' two renderers). */
  name?: string;
  /** For a page with no row elements (a chart): the i-th target's centre, and the record at a point. */
  targetAt?: (page: Page, i: number) => Promise<{ x: number; y: number }>;
  keyAt?: (page: Page, p: { x: number; y: number }) => Promise<string | null>;
}

type Bar = { name: string; x: number; y: number; width: number; height: number };
const bars = (page: Page) => page.evaluate(() => (window as unknown as { rw: { bars(): Bar[] } }).rw.bars());

/** A bar chart's bars as records: the i-th bar's centre; the category whose bar holds a point. */
const CHART = {
  // ECharts as one ES bundle (its dist build, as a script tag or a bundler ships it to real pages): the ≈590
  // modules of echarts/core (the realweb tests' default) cost about a core-second a load on this machine,
  // and the living section loads the chart pages about 190 times.
  query: { build: 'dist' },
  rows: '#chart',
  target: '',
  act: 'drill',
  move: 'resort',
  targetAt: async (page: Page, i: number) => {
    const b = (await bars(page))[i] as Bar;
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  },
  keyAt: async (page: Page, p: { x: number; y: number }) =>
    (await bars(page)).find((b) => p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height)
      ?.name ?? null,
};

export const SUBJECTS: Subject[] = [
  {
    page: 'jobs',
    rows: '.job',
    target: 'a.cancel',
    act: 'cancel',
    move: 'resort',
    lives: 'Vue 3: durations tick every 100 ms (span / role=timer), relative times, progress, spinners',
  },
  {
    page: 'prices',
    query: { sortvia: 'data' },
    rows: '.ag-row:has(a.buy)',
    target: 'a.buy',
    act: 'buy',
    move: 'resort',
    lives: 'AG Grid: prices and changes tick every 150 ms, cells re-rendered and flashing',
  },
  {
    page: 'people',
    rows: '.person',
    target: 'a.follow',
    act: 'unfollow',
    move: 'resort',
    lives: 'one Lit element: "Following" reads "Unfollow" under the pointer',
  },
  {
    page: 'sheet',
    rows: '.sheet-row',
    target: 'button',
    act: 'delete',
    move: 'resort',
    lives: 'Vue 3 inputs (nothing lives: the rows differ only in their values)',
  },
  {
    page: 'feed',
    query: { late: 300, interval: 400 },
    rows: '.story',
    target: 'a.read',
    act: 'read',
    move: 'resort',
    lives: 'lazysizes avatars arrive after the screenshot, a Bootstrap carousel turns beside',
  },
  {
    page: 'swatches',
    rows: '.swatch-row',
    target: 'button',
    act: 'colour',
    move: 'resort',
    lives: 'Vue 3 colour rows alike in the DOM but for a style (pixels decide; nothing lives)',
  },
  {
    page: 'ionic',
    rows: 'ion-item',
    target: 'ion-button',
    act: 'open',
    move: 'resort',
    lives: 'Ionic: progress bars rise every 120 ms, spinners turn',
  },
  {
    page: 'inbox',
    query: { avatarDelay: 300 },
    rows: '.inbox-row',
    target: 'a.open',
    act: 'open',
    move: 'resort',
    lives: 'React: each avatar arrives after the screenshot (the app sets its src)',
  },
  {
    ...CHART,
    page: 'echarts',
    name: 'echarts-svg',
    query: { ...CHART.query, renderer: 'svg', live: 200 },
    lives: 'Apache ECharts 6, SVG: every value label ticks every 200 ms',
  },
  {
    ...CHART,
    page: 'echarts',
    name: 'echarts-canvas',
    query: { ...CHART.query, renderer: 'canvas', live: 300 },
    lives: 'Apache ECharts 6, canvas: the chart set again every 300 ms; the pointer raises its emphasis',
  },
];

/** The key of the record under a CSS point, read from the page (through open shadow roots). */
export function keyAt(page: Page, s: Subject, p: { x: number; y: number }): Promise<string | null> {
  if (s.keyAt) return s.keyAt(page, p);
  return page.evaluate(
    ({ p, rows, act }) => {
      let el: Element | null = document.elementFromPoint(p.x, p.y);
      for (let i = 0; el?.shadowRoot && i < 16; i++) {
        const inner: Element | null = el.shadowRoot.elementFromPoint(p.x, p.y);
        if (!inner || inner === el) break;
        el = inner;
      }
      for (let x: Element | null = el; x; ) {
        if (x.matches(rows)) {
          const link = x.querySelector('a[href*="/rw/act"], ion-button');
          // ion-button takes href as a property (Stencil), a link as an attribute.
          const href = (link as HTMLAnchorElement | null)?.href || link?.getAttribute('href');
          if (href) return new URL(href, location.href).searchParams.get('id');
          const input = x.querySelector('input[name="id"]') as HTMLInputElement | null;
          if (input) return input.value;
          // A colour row: the colour it shows is all that names it (the server records it as hex).
          const chip = x.querySelector('.chip');
          const rgb = chip ? getComputedStyle(chip).backgroundColor.match(/\d+/g) : null;
          return rgb
            ? rgb
                .slice(0, 3)
                .map((v) => Number(v).toString(16).padStart(2, '0'))
                .join('')
            : null;
        }
        const root = x.getRootNode();
        x = x.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
      }
      void act;
      return null;
    },
    { p, rows: s.rows, act: s.act },
  );
}

export async function rowTarget(page: Page, s: Subject, i: number): Promise<{ x: number; y: number }> {
  if (s.targetAt) return s.targetAt(page, i);
  const loc = page.locator(s.rows).nth(i).locator(s.target).first();
  // A grid redraws its cells as prices tick: found, then its box read in a second call, the element may be
  // gone (on a loaded machine twenty reads in a row were). Found and measured in one call, in the page, it
  // cannot be; the reads are still spread over a second.
  const centre = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null;
  };
  for (let k = 0; k < 10; k++) {
    const b = await loc.evaluate(centre, undefined, { timeout: 5000 }).catch(() => null);
    if (b) return b;
    await sleep(100);
  }
  throw new Error(`/rw/${s.page}: row ${i} has no ${s.target}`);
}

/** How long a page may take to get ready before its click is tried on a fresh load (then not run). */
const READY_MS = 20_000;

/** Loads the page for a run and waits until it is ready; the page to read, taken after the navigation. */
export async function open(
  pageOf: () => Promise<Page>,
  srv: FixtureServer,
  s: Subject,
  run: string,
  goto: (u: string) => Promise<void>,
): Promise<Page> {
  await goto(srv.url(`/rw/${s.page}`, { ...s.query, run }));
  // A session replaces a tab it finds hung (on a loaded machine it may): read the one it has now.
  const page = await pageOf();
  await page.waitForFunction(
    () => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true,
    null,
    {
      timeout: READY_MS,
    },
  );
  await page.mouse.move(2, 2);
  return page;
}
