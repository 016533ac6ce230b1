import { after, before } from 'node:test';
import type { Page } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { type Screenshot, type SessionOptions, TrueclickSession } from '../../src/index.js';

/** A test file's fixture server and library session: made before its tests, closed after them. */
export function librarySession(opts: SessionOptions): { srv: FixtureServer; session: TrueclickSession } {
  const ctx = {} as { srv: FixtureServer; session: TrueclickSession };
  before(async () => {
    ctx.srv = await startFixtureServer();
    ctx.session = new TrueclickSession(opts);
  });
  after(async () => {
    await ctx.session?.close();
    await ctx.srv?.close();
  });
  return ctx;
}

/** A CSS point of the viewport as a click names it on this frame: its id and image px, as a model reads them. */
export function imageAt(
  shot: Screenshot,
  css: { x: number; y: number },
): { frame: string; x: number; y: number } {
  const { image, css: view } = shot.frame.geometry;
  return {
    frame: shot.frame.id,
    x: (css.x * image.width) / view.width,
    y: (css.y * image.height) / view.height,
  };
}

/** Swaps two /many cells, by the ids of their controls, as a re-sort would: each shows where the other was. */
export function swapManyCells(page: Page, a: string, b: string): Promise<void> {
  return page.evaluate(
    ([x, y]) => {
      const ca = document.getElementById(x as string)?.parentElement;
      const cb = document.getElementById(y as string)?.parentElement;
      if (!ca || !cb) throw new Error('no such cells');
      [ca.style.left, cb.style.left] = [cb.style.left, ca.style.left];
    },
    [a, b],
  );
}
