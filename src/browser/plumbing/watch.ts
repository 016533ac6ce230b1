import type { PageDriver } from './page-driver.js';

/** Attributes whose change can move or re-label what is under a point. */
const LAYOUT_ATTRIBUTES = ['style', 'class', 'hidden', 'open', 'src', 'value', 'aria-hidden', 'disabled'];

/**
 * Starts recording the page-clock times of layout-changing mutations (nodes added or removed, text changed,
 * style/class/hidden flipped) under the elements matching `selector` (default: the whole document), from
 * trueclick's isolated world. Returns the page-clock start time.
 */
export async function startMutationWatch(
  driver: PageDriver,
  selector?: string,
): Promise<{ start: number; watched: number }> {
  const expr = `(() => {
    const sel = ${JSON.stringify(selector ?? null)};
    const roots = sel ? Array.from(document.querySelectorAll(sel)) : [document];
    const w = window.__trueclickWatch = { times: [], observers: [] };
    for (const root of roots) {
      const o = new MutationObserver((records) => {
        const t = performance.now();
        for (const r of records) if (r.type !== 'attributes' || ${JSON.stringify(LAYOUT_ATTRIBUTES)}.includes(r.attributeName)) { w.times.push(t); break; }
      });
      o.observe(root, { childList: true, subtree: true, attributes: true, characterData: true });
      w.observers.push(o);
    }
    return { start: performance.now(), watched: roots.length };
  })()`;
  return driver.evaluate(expr);
}

export async function stopMutationWatch(driver: PageDriver): Promise<{ end: number; times: number[] }> {
  return driver.evaluate(`(() => {
    const w = window.__trueclickWatch;
    for (const o of w ? w.observers : []) o.disconnect();
    return { end: performance.now(), times: w ? w.times : [] };
  })()`);
}

/** Share of whole 1-second windows in [start, end) that saw at least one mutation. */
export function churnWindows(
  start: number,
  end: number,
  times: number[],
): { windows: number; changed: number } {
  const windows = Math.max(0, Math.floor((end - start) / 1000));
  const hit = new Set<number>();
  for (const t of times) {
    const k = Math.floor((t - start) / 1000);
    if (k >= 0 && k < windows) hit.add(k);
  }
  return { windows, changed: hit.size };
}
