// One grounding round trip on a live page: the target's true box → what a model family would answer for it
// on the frame (after the client's downscale) → that raw output clicked through trueclick → whether the target
// received the click, by the page's own recorder (page.ts). The naive pipeline beside it sends the same
// numbers as CSS px. Shared by `trueclick matrix --url` and the Playwright Test helper (trueclick/test).

import type { Page } from 'playwright-core';
import type { Screenshot, TrueclickSession } from '../actions/session/session.js';
import type { ClickRequest } from '../actions/verbs/click.js';
import { dispatchClick } from '../browser/plumbing/input.js';
import type { CssBox, PresetName, Size, XY } from '../geometry/index.js';
import { type Downscale, modelRequest, type World } from './oracle.js';
import { clicksSince, onScrollbar } from './page.js';

export type { Downscale } from './oracle.js';

/** The naive pipeline's click: the numbers as CSS px; not sent off the viewport or onto a scrollbar. */
export interface NaiveOutcome {
  hit: boolean;
  point: XY;
  where: 'dispatched' | 'off-screen' | 'scrollbar';
}

export interface CellOutcome {
  /** The model's raw output, as passed to trueclick. */
  text: string;
  trueclick: { hit: boolean; verdict?: string; error?: string; dispatched: XY | null; message?: string };
  naive?: NaiveOutcome;
}

export interface CellInput {
  page: Page;
  tc: TrueclickSession;
  shot: Screenshot;
  /** The screenshot's image size, px. */
  image: Size;
  /** The page when the frame was taken. */
  world: World;
  box: CssBox;
  preset: PresetName;
  downscale: Downscale;
  /** The target's index in the recorder, and the recorder's read position (advanced here). */
  target: number;
  seen: { n: number };
  naive: boolean;
}

const errorText = (err: unknown) => {
  const e = err as { code?: string; message?: string };
  return `${e.code ?? 'Error'}: ${e.message ?? String(err)}`;
};

/** Waits for a click to reach the recorder: whether a trusted one reached the target; undefined for none. */
async function reached(page: Page, seen: { n: number }, target: number): Promise<boolean | undefined> {
  for (let i = 0; i < 20; i++) {
    const got = await clicksSince(page, seen.n);
    if (got.length > 0) {
      seen.n += got.length;
      return got.some((c) => c.trusted && c.inside[target]);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return undefined;
}

/** The model's answer clicked through trueclick: its verdict, where input went, or the refusal it threw. */
export async function clickAnswer(
  tc: TrueclickSession,
  req: ClickRequest,
): Promise<{ verdict?: string; error?: string; dispatched: XY | null; message?: string }> {
  try {
    const r = await tc.click(req);
    return {
      verdict: r.verdict,
      dispatched: r.dispatched,
      ...(r.verdict !== 'OK' ? { message: r.message } : {}),
    };
  } catch (err) {
    return { dispatched: null, error: errorText(err) };
  }
}

export async function groundCell(c: CellInput): Promise<CellOutcome> {
  const { answer, req } = modelRequest({ ...c, frame: c.shot.frame.id });
  const tc: CellOutcome['trueclick'] = { hit: false, ...(await clickAnswer(c.tc, req)) };
  if (tc.dispatched) tc.hit = (await reached(c.page, c.seen, c.target)) === true;
  const out: CellOutcome = { text: answer.text, trueclick: tc };
  if (c.naive) out.naive = await naiveClick(c, answer.naive);
  return out;
}

/**
 * The naive click. A press on a scrollbar misses the target and scrolls (no page listener can stop it),
 * which would move the page under every later cell of the world: counted as a miss, not sent.
 */
async function naiveClick(c: CellInput, p: XY): Promise<NaiveOutcome> {
  if (!(p.x >= 0 && p.y >= 0 && p.x < c.world.w && p.y < c.world.h))
    return { hit: false, point: p, where: 'off-screen' };
  if (await onScrollbar(c.page, p)) return { hit: false, point: p, where: 'scrollbar' };
  await dispatchClick(await c.tc.driver(), p);
  return { hit: (await reached(c.page, c.seen, c.target)) === true, point: p, where: 'dispatched' };
}
