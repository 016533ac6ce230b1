/**
 * The ticket queue (fixtures/pages/tickets.html) as the approval section uses it: aim at a control from the
 * page's own layout right after the screenshot, and read which ticket a run deleted from the page's own hit
 * record (extra.deleted of its trusted clicks), never from trueclick's answer.
 */
import type { Page } from 'playwright-core';
import type { FixtureServer } from '../fixtures/server.js';
import type { TrueclickSession } from '../src/index.js';

/** The Delete button of the row at `slot` (0-based), whichever ticket holds it. */
export const deleteAt = (slot: number) => `#queue > li:nth-child(${slot + 1}) button.del`;

export interface Aim {
  page: Page;
  frame: string;
  /** The ticket whose Delete the screenshot showed there (the button's id for other controls). */
  ticket: string;
  /** The control's centre in the frame's image, px: what a perfect model answers. */
  at: { x: number; y: number };
}

/** A screenshot, then where `selector` is on the page at that moment (nothing is scheduled to move yet). */
export async function aim(session: TrueclickSession, selector: string): Promise<Aim> {
  const shot = await session.screenshot();
  const page = (await session.driver()).page;
  const seen = await page.evaluate((sel) => {
    const el = document.querySelector<HTMLElement>(sel);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { ticket: el.dataset.ticket ?? el.id, x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }, selector);
  if (!seen) throw new Error(`approval: nothing at ${selector}`);
  const g = shot.frame.geometry;
  const k = g.image.width / g.css.width;
  return { page, frame: shot.frame.id, ticket: seen.ticket, at: { x: seen.x * k, y: seen.y * k } };
}

/** Tickets the run's trusted clicks deleted, as the page recorded them. */
export function deletions(fixture: FixtureServer, run: string): string[] {
  return fixture
    .hits({ page: 'tickets', run, type: 'click' })
    .filter((h) => h.isTrusted)
    .map((h) => h.extra?.deleted)
    .filter((d): d is string => typeof d === 'string');
}
