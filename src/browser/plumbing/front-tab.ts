import type { BrowserContext, Page } from 'playwright-core';

/** How long the browser's HTTP target list may take before the pages' own signals decide. */
const LIST_BUDGET_MS = 2_000;

/**
 * The tab the user is looking at. Chromium's HTTP endpoint lists page targets most recently active first
 * (`/json/list`), which holds in headless too, where every page reports itself visible and focused. Where
 * that list cannot be read (an endpoint behind a proxy, a ws:// URL without it): the last page that is
 * visible and focused, else the last visible one, else the last one.
 */
export async function frontPage(context: BrowserContext, endpoint: string): Promise<Page | undefined> {
  const pages = context.pages();
  if (pages.length < 2) return pages[0];
  const first = await mostRecentTarget(endpoint);
  if (first) {
    const ids = await Promise.all(pages.map((p) => targetIdOf(context, p)));
    const front = pages[ids.indexOf(first)];
    if (front) return front;
  }
  const looks = await Promise.all(
    pages.map((p) =>
      p
        .evaluate(() => [document.visibilityState === 'visible', document.hasFocus()])
        .catch(() => [false, false]),
    ),
  );
  return (
    pages.filter((_, i) => looks[i]?.[0] && looks[i]?.[1]).at(-1) ??
    pages.filter((_, i) => looks[i]?.[0]).at(-1) ??
    pages.at(-1)
  );
}

/** The id of the page target listed first by the endpoint's /json/list, if it can be read. */
async function mostRecentTarget(endpoint: string): Promise<string | undefined> {
  try {
    const url = new URL(endpoint);
    url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
    url.pathname = '/json/list';
    url.search = '';
    const r = await fetch(url, { signal: AbortSignal.timeout(LIST_BUDGET_MS) });
    if (!r.ok) return undefined;
    const list = (await r.json()) as Array<{ id?: string; type?: string }>;
    return list.find((t) => t.type === 'page')?.id;
  } catch {
    return undefined;
  }
}

async function targetIdOf(context: BrowserContext, page: Page): Promise<string | undefined> {
  try {
    const s = await context.newCDPSession(page);
    const { targetInfo } = await s.send('Target.getTargetInfo');
    await s.detach().catch(() => {});
    return targetInfo.targetId;
  } catch {
    return undefined;
  }
}
