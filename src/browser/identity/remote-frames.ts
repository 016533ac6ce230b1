import type { Frame } from 'playwright-core';
import { BrowserError, withBudget } from '../plumbing/errors.js';
import { CDP_BUDGET_MS, PageDriver } from '../plumbing/page-driver.js';

/** An iframe whose document lives in another renderer process (a cross-site iframe). */
export interface RemoteFrame {
  frameId: string;
  driver: PageDriver;
  /** backendNodeId of its <iframe> element, in the document of `holder`'s session. */
  ownerBackendNodeId: number;
  /** The session whose document holds its <iframe>: the page's, or another cross-site frame's. */
  holder: PageDriver;
}

/** An out-of-process frame's session and the session that holds its <iframe> element. */
export interface RemoteDriver {
  driver: PageDriver;
  holder: PageDriver;
}

// One driver per Playwright frame, made on first sight; null for a frame that shares its parent's session.
const drivers = new WeakMap<Frame, Promise<PageDriver | null>>();

function driverOf(main: PageDriver, f: Frame): Promise<PageDriver | null> {
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
  return p;
}

/**
 * The sessions of the page's out-of-process iframes at any depth, made on first sight; the page itself is
 * not asked. A frame inside a cross-site frame that comes back to the page's own site (a payment widget's
 * frame showing the shop again) lives in a process of its own too: its <iframe> is held by the widget's
 * session, which `holder` names.
 */
export async function remoteDrivers(main: PageDriver): Promise<RemoteDriver[]> {
  const top = main.page.mainFrame();
  const frames = main.page.frames().filter((f) => f !== top && !f.isDetached());
  if (frames.length === 0) return [];
  const found = new Map<Frame, PageDriver>();
  await Promise.all(
    frames.map(async (f) => {
      const driver = await driverOf(main, f);
      if (driver && !driver.isClosed) found.set(f, driver);
    }),
  );
  const out: RemoteDriver[] = [];
  for (const [f, driver] of found) {
    // The nearest ancestor with a session of its own holds the <iframe>; same-process ones share it.
    let p = f.parentFrame();
    while (p && p !== top && !found.has(p)) p = p.parentFrame();
    out.push({ driver, holder: (p && found.get(p)) ?? main });
  }
  return out;
}

/** The page's out-of-process iframes, each with a session and a guard of its own, at any depth. */
export async function remoteFrames(main: PageDriver): Promise<RemoteFrame[]> {
  const found = await Promise.all((await remoteDrivers(main)).map((d) => placed(d.holder, d.driver)));
  return found.filter((r): r is RemoteFrame => r !== null);
}

/** An iframe's session with the <iframe> element that shows it (null once that element is gone). */
export async function placed(holder: PageDriver, driver: PageDriver): Promise<RemoteFrame | null> {
  const owner = await holder.send('DOM.getFrameOwner', { frameId: driver.mainFrameId }).catch(() => null);
  return owner
    ? { frameId: driver.mainFrameId, driver, ownerBackendNodeId: owner.backendNodeId, holder }
    : null;
}

/** The out-of-process frame `frameId` whose <iframe> is in the document of `holder`'s session. */
export async function remoteFrame(holder: PageDriver, frameId: string): Promise<RemoteFrame | undefined> {
  if (holder.page.frames().length < 2) return undefined;
  const frames = holder.page.frames().filter((f) => f !== holder.page.mainFrame() && !f.isDetached());
  const all = await Promise.all(frames.map((f) => driverOf(holder, f)));
  const driver = all.find((d) => d && !d.isClosed && d.mainFrameId === frameId);
  return (driver && (await placed(holder, driver))) ?? undefined;
}
