import type { Frame } from 'playwright-core';
import { BrowserError, withBudget } from '../plumbing/errors.js';
import { CDP_BUDGET_MS, PageDriver } from '../plumbing/page-driver.js';

/** An iframe whose document lives in another renderer process (a cross-site iframe). */
export interface RemoteFrame {
  frameId: string;
  driver: PageDriver;
  /** backendNodeId of its <iframe> element in the page's document. */
  ownerBackendNodeId: number;
}

// One driver per Playwright frame, made on first sight; null for a frame that shares the page's session.
const drivers = new WeakMap<Frame, Promise<PageDriver | null>>();

/**
 * The page's out-of-process iframes, each with a session and a guard of its own. Same-process iframes are
 * not here: the page's own session already sees into them (their nodes, snapshot and isolated worlds).
 * Only iframes of the page's own document: an iframe nested in a cross-site iframe is not entered.
 */
export async function remoteFrames(main: PageDriver): Promise<RemoteFrame[]> {
  const found = await Promise.all((await remoteDrivers(main)).map((d) => placed(main, d)));
  return found.filter((r): r is RemoteFrame => r !== null);
}

/** The sessions of the page's out-of-process iframes, made on first sight; the page itself is not asked. */
export async function remoteDrivers(main: PageDriver): Promise<PageDriver[]> {
  const top = main.page.mainFrame();
  const frames = main.page.frames().filter((f) => f !== top && f.parentFrame() === top && !f.isDetached());
  if (frames.length === 0) return [];
  const found = await Promise.all(
    frames.map(async (f) => {
      let p = drivers.get(f);
      if (!p) {
        const attach = main.page
          .context()
          .newCDPSession(f)
          .then((s) => PageDriver.create(main.page, s, true));
        p = withBudget('attaching to a cross-site iframe', CDP_BUDGET_MS, attach).catch((err: unknown) => {
          // "This frame does not have a separate CDP session": a same-process iframe, for good. A frame
          // that was too slow is tried again next time.
          if (err instanceof BrowserError) drivers.delete(f);
          return null;
        });
        drivers.set(f, p);
      }
      const driver = await p;
      return driver && !driver.isClosed ? driver : null;
    }),
  );
  return found.filter((d): d is PageDriver => d !== null);
}

/** An iframe's session with the <iframe> element that shows it (null once that element is gone). */
export async function placed(main: PageDriver, driver: PageDriver): Promise<RemoteFrame | null> {
  const owner = await main.send('DOM.getFrameOwner', { frameId: driver.mainFrameId }).catch(() => null);
  return owner ? { frameId: driver.mainFrameId, driver, ownerBackendNodeId: owner.backendNodeId } : null;
}

export async function remoteFrame(main: PageDriver, frameId: string): Promise<RemoteFrame | undefined> {
  if (main.page.frames().length < 2) return undefined;
  return (await remoteFrames(main)).find((r) => r.frameId === frameId);
}
