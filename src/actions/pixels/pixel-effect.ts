import { PageEvents } from '../../browser/plumbing/page-events.js';
import { diffGrey, fitGrey, greyOf } from '../../image/pixel-diff.js';
import type { Attempt } from '../check/attempt.js';
import { fmt } from '../check/verdicts.js';
import { bandNow, MIN_CHANGED, pct } from './pixels.js';

// What a press drew where the DOM says nothing changed: a canvas app answers a press in pixels. The band under
// the point is read once more after the press and set against the band as read before trueclick's pointer
// came, so the page's answer to the hover counts too, and the answer says so.

/** How long the band is waited for after a press: the answer says nothing of pixels rather than wait. */
const AFTER_PRESS_MS = 1000;

/**
 * A change of this many grey levels counts here (the pixel guard's own step is coarser, for antialiasing
 * between a frame and a re-read): the same band read twice at the same scale differs by nothing but what
 * was drawn, and a pressed shade is often a few dozen levels darker.
 */
const DRAWN_STEP = 16;

export type Drawn = { drawn: string } | { same: true } | { unread: string };

/** The band under the point after the press, against the band before the pointer came. */
export async function drawnByPress(a: Attempt): Promise<Drawn> {
  const s = a.pixelStage;
  const before = s?.before;
  if (!s || !before) return { unread: 'it was not read before the press' };
  if (s.check.moving) return { unread: 'it moves by itself' };
  const { driver } = a.ctx;
  let stop = () => {};
  let timer: NodeJS.Timeout | undefined;
  // Chromium answers no capture while a dialog is open or as a document commits: either ends the wait.
  const cut = new Promise<{ unread: string }>((resolve) => {
    stop = driver.watchDocument(() => resolve({ unread: 'the tab began loading a new document' }));
    timer = setTimeout(() => resolve({ unread: 'no answer in time' }), AFTER_PRESS_MS);
  });
  try {
    const read = PageEvents.of(driver.page)
      .race(bandNow(a, s, { budgetMs: AFTER_PRESS_MS }))
      .then((r) => (r.done ? r.value : { unread: 'the page opened a dialog' }));
    const png = await Promise.race([read, cut]);
    if (!Buffer.isBuffer(png)) return png;
    const d = diffGrey(before, fitGrey(await greyOf(png), before.width, before.height), DRAWN_STEP);
    if (d.changedPixels < MIN_CHANGED) return { same: true };
    const band = `${fmt(s.check.band.width)}×${fmt(s.check.band.height)} CSS px band under the point`;
    return {
      drawn: `the ${s.check.why} drew anew: ${pct(d.changedShare)} of the ${band} differs from before trueclick's pointer came (the page's answer to the press, or to the hover)`,
    };
  } catch (err) {
    return { unread: `its capture failed: ${(err as Error).message.split('\n')[0]}` };
  } finally {
    stop();
    clearTimeout(timer);
  }
}
