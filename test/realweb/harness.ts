// Drives trueclick (the library session the MCP tools use) on the real-web corpus. Where a target is comes
// from the page through Playwright locators, what was clicked from the server's action log: never from
// trueclick's own answer.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { Frame, Locator, Page } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import type { ClickReport } from '../../src/actions/check/verdicts.js';
import { type Screenshot, TrueclickSession } from '../../src/actions/session/session.js';
import type { Expect } from '../../src/index.js';

type Rw = Record<string, (...args: unknown[]) => Promise<unknown>>;
export type Point = { x: number; y: number };

/** window.rw.<name>(...args) in the page's main world; resolves when the library rendered the change. */
export function cmd<T = unknown>(target: Page | Frame, name: string, ...args: unknown[]): Promise<T> {
  return target.evaluate(([n, a]) => (window as unknown as { rw: Rw }).rw[n]?.(...a), [name, args] as [
    string,
    unknown[],
  ]) as Promise<T>;
}

export class Corpus {
  private n = 0;
  constructor(
    readonly srv: FixtureServer,
    readonly tc: TrueclickSession,
  ) {}

  async page(): Promise<Page> {
    return (await this.tc.driver()).page;
  }

  /** Opens a corpus page in a new run and waits until its library rendered. */
  async open(
    name: string,
    query: Record<string, string | number> = {},
  ): Promise<{ run: string; page: Page }> {
    const run = `${name}-${++this.n}`;
    await this.tc.navigate(this.srv.url(`/rw/${name}`, { run, ...query }));
    const page = await this.page();
    await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true);
    return { run, page };
  }

  /**
   * Centre of an element in CSS viewport px, as the page lays it out (inside iframes too). A grid redraws
   * its cells as prices tick: the element found may be replaced before its box is read, so it is read again.
   */
  async centre(loc: Locator): Promise<Point> {
    let b = await loc.boundingBox();
    for (let i = 0; !b && i < 10; i++) b = await loc.boundingBox();
    assert.ok(b, 'target has a box');
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  }

  /** Clicks a CSS point read off this frame as a model would: in the frame's image px. */
  click(shot: Screenshot, css: Point, expect?: Expect): ReturnType<TrueclickSession['click']> {
    const { image, css: c } = shot.frame.geometry;
    const req: Parameters<TrueclickSession['click']>[0] = {
      frame: shot.frame.id,
      x: (css.x * image.width) / c.width,
      y: (css.y * image.height) / c.height,
    };
    if (expect) req.expect = expect;
    return this.tc.click(req);
  }

  /** The actions the server recorded for a run, after a moment for a late request to arrive. */
  async actionsAfter(run: string, ms = 300) {
    await new Promise((r) => setTimeout(r, ms));
    return this.srv.actions({ run });
  }
}

/**
 * One fixture server and one trueclick session (one browser, devicePixelRatio 2) for a test file; the
 * returned object is filled in by `before`.
 */
export function corpusForFile(): { srv: FixtureServer; tc: TrueclickSession; rw: Corpus } {
  const ctx = {} as { srv: FixtureServer; tc: TrueclickSession; rw: Corpus };
  before(async () => {
    ctx.srv = await startFixtureServer();
    ctx.tc = new TrueclickSession({ deviceScaleFactor: 2 });
    ctx.rw = new Corpus(ctx.srv, ctx.tc);
  });
  after(async () => {
    await ctx.tc?.close();
    await ctx.srv?.close();
  });
  return ctx;
}

/** A click that was refused: the right verdict, nothing dispatched, and (checked by the caller) no action. */
export function assertRefused(r: ClickReport, verdict: string | RegExp) {
  if (typeof verdict === 'string') assert.equal(r.verdict, verdict, r.message);
  else assert.match(r.verdict, verdict, r.message);
  assert.equal(r.dispatched, null, 'nothing dispatched');
}
