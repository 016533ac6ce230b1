import type { Page } from 'playwright-core';
import { type SessionOptions, TrueclickSession } from './actions/session/session.js';
import { PageDriver } from './browser/plumbing/page-driver.js';

/**
 * trueclick over a Playwright Page you already drive: screenshot frames and guarded clicks with the same
 * verdicts as the MCP tools. Our CDP session is a second one beside Playwright's; if your context emulates
 * a deviceScaleFactor, screenshots taken through it come back at CSS size (research/baselines.md), and the
 * frame's measured ratio stays right.
 */
export async function trueclickForPage(page: Page, options: SessionOptions = {}): Promise<TrueclickSession> {
  const context = page.context();
  const browser = context.browser();
  if (!browser)
    throw new Error(
      'trueclickForPage needs a page of a launched or connected browser (not a persistent context).',
    );
  const drivers: PageDriver[] = [];
  const driverFor = async (p: Page) => {
    const d = await PageDriver.create(p, await context.newCDPSession(p));
    drivers.push(d);
    return d;
  };
  const driver = await driverFor(page);
  return new TrueclickSession(options, {
    browser,
    context,
    driver,
    attached: true,
    driverFor,
    // A page the user drives keeps the user's own rules: no origin policy is laid over their browser.
    blocked: [],
    isConnected: () => browser.isConnected(),
    close: async () => {
      await Promise.all(drivers.map((d) => d.detach()));
    },
  });
}
