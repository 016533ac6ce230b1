import { TrueclickSession } from '../actions/session/session.js';
import { churnWindows, startMutationWatch, stopMutationWatch } from '../browser/plumbing/watch.js';
import { type BrowserFlags, sessionOptions } from './options.js';

export interface ChurnResult {
  url: string;
  selector: string | null;
  seconds: number;
  windows: number;
  changed: number;
  share: number;
  mutationsPerSecond: number;
}

/**
 * `trueclick churn URL`: how often the page changes under a point in a second, the time a model takes to
 * answer. The share of 1-second windows with a layout-changing mutation is the chance that a click read off
 * a screenshot meets a page that moved.
 */
export async function measureChurn(
  url: string,
  o: BrowserFlags & { selector?: string; seconds: number },
): Promise<ChurnResult> {
  const session = new TrueclickSession(sessionOptions(o));
  try {
    await session.navigate(url);
    const driver = await session.driver();
    const { start, watched } = await startMutationWatch(driver, o.selector);
    if (o.selector && watched === 0) throw new Error(`No element matches --selector ${o.selector} on ${url}`);
    await new Promise((r) => setTimeout(r, o.seconds * 1000 + 50));
    const { end, times } = await stopMutationWatch(driver);
    const { windows, changed } = churnWindows(start, end, times);
    return {
      url,
      selector: o.selector ?? null,
      seconds: o.seconds,
      windows,
      changed,
      share: windows ? changed / windows : 0,
      mutationsPerSecond: times.length / ((end - start) / 1000),
    };
  } finally {
    await session.close();
  }
}

export async function churn(
  url: string,
  o: BrowserFlags & { selector?: string; seconds: number; json?: boolean },
): Promise<number> {
  const r = await measureChurn(url, o);
  if (o.json) {
    console.log(JSON.stringify(r, null, 2));
    return 0;
  }
  const pct = (r.share * 100).toFixed(0);
  console.log(
    `${r.url}${r.selector ? ` (${r.selector})` : ''}: ${r.changed} of ${r.windows} one-second windows had a layout-changing mutation (${pct}%), ${r.mutationsPerSecond.toFixed(1)} mutation batches per second.`,
  );
  console.log(
    r.changed === 0
      ? 'The page held still: a click read off a screenshot about a second old is unlikely to meet a changed page.'
      : `A click read off a screenshot about a second old meets a changed page about ${pct}% of the time: use browser_click with its frame, so trueclick checks before it acts.`,
  );
  return 0;
}
