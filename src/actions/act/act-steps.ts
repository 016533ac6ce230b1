import { aDialog } from '../../browser/plumbing/page-events.js';
import { conventionFor, type FrameGeometry, modelImageSize, toConvention } from '../../geometry/index.js';
import type { NativePoint, NativeStep, ScrollAmount } from '../../native/index.js';
import { ActionError } from '../check/errors.js';
import type { Expect } from '../check/expect.js';
import type { ClickReport, Point } from '../check/verdicts.js';
import type { FrameRecord } from '../session/frames.js';
import { type Effects, effectsOf } from '../session/page-watch.js';
import type { TrueclickSession } from '../session/session.js';
import { typeOutcome } from '../verbs/keys.js';
import type { ActRequest, ActResult, StepOutcome } from './act-types.js';

// One native step on the session's guarded actions: a click is browser_click's click, a drag its drag, a
// scroll its wheel, in CSS px resolved from the family's coordinates (act.ts resolved them all first).

/** CSS px one mouse-wheel notch scrolls: Chromium's step on Windows and in headless. */
export const WHEEL_CLICK_CSS = 100;

/** CSS px per unit of the family's coordinate space, per axis (its pixels, or its grid). */
function cssPerUnit(req: ActRequest, frame: FrameGeometry): Point {
  const c = conventionFor(
    { model: req.model, axis_order: 'xy', ...(req.shown_width ? { shown_width: req.shown_width } : {}) },
    frame,
  );
  if (c.units === 'px') {
    const size = modelImageSize(c, frame);
    return { x: frame.css.width / size.width, y: frame.css.height / size.height };
  }
  return { x: frame.css.width / 1000, y: frame.css.height / 1000 };
}

/** A scroll amount in CSS px. */
function scrollCss(
  a: ScrollAmount,
  req: ActRequest,
  frame: FrameGeometry | undefined,
  viewport: Point,
): Point {
  switch (a.unit) {
    case 'wheel_click':
      return { x: a.dx * WHEEL_CLICK_CSS, y: a.dy * WHEEL_CLICK_CSS };
    case 'viewport':
      return { x: a.dx * viewport.x, y: a.dy * viewport.y };
    case 'grid':
      return { x: (a.dx / 1000) * viewport.x, y: (a.dy / 1000) * viewport.y };
    case 'image_px': {
      const k = frame ? cssPerUnit(req, frame) : { x: 1, y: 1 };
      return { x: a.dx * k.x, y: a.dy * k.y };
    }
  }
}

/** Gemini's reference and Anthropic's browser toolset open "example.com" as https://example.com. */
function absoluteUrl(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}

export interface StepContext {
  req: ActRequest;
  frame: FrameRecord | undefined;
  css: Map<NativePoint, Point>;
  result: ActResult;
  signal: AbortSignal | undefined;
}

export type Target = (p: NativePoint | undefined) => {
  frame?: string;
  x: number;
  y: number;
  units: 'css';
  expect?: Expect;
  follow?: boolean;
};

type Ran = Pick<StepOutcome, 'status' | 'verdict' | 'message' | 'report' | 'effects' | 'effect'>;

const fromReport = (report: ClickReport & Effects): Ran => ({
  status: report.dispatched === null && report.verdict !== 'OK' ? 'refused' : 'done',
  verdict: report.verdict,
  message: `${report.verdict}: ${report.message}`,
  report,
  ...(report.effect ? { effect: report.effect } : {}),
  effects: effectsOf(report),
});

const done = (message: string, effects?: Effects): Ran => ({
  status: 'done',
  message,
  ...(effects ? { effects: effectsOf(effects) } : {}),
});

export async function runStep(
  session: TrueclickSession,
  step: NativeStep,
  target: Target,
  c: StepContext,
): Promise<Ran> {
  switch (step.kind) {
    case 'click': {
      if (step.button === 'back' || step.button === 'forward') {
        const r = step.button === 'back' ? await session.back(c.signal) : await session.forward(c.signal);
        return done(`Went ${step.button} (the ${step.button} mouse button): the tab is at ${r.url}.`);
      }
      return fromReport(
        await session.click({
          ...target(step.at),
          button: step.button,
          click_count: step.count,
          modifiers: step.modifiers,
        }),
      );
    }
    case 'move':
      if (session.buttonHeld) return fromReport(await session.moveHeld(target(step.at), step.modifiers));
      return fromReport(await session.hover({ ...target(step.at), modifiers: step.modifiers }));
    case 'mouse_down':
      return fromReport(await session.press(target(step.at)));
    case 'mouse_up':
      return fromReport(await session.releaseButton(target(step.at)));
    case 'drag': {
      const from = target(step.from);
      const to = target(step.to);
      return fromReport(
        await session.drag({
          ...(from.frame ? { frame: from.frame } : {}),
          units: 'css',
          from: { x: from.x, y: from.y },
          to: { x: to.x, y: to.y },
          via: step.via.map((v) => ({ ...(c.css.get(v) as Point) })),
          modifiers: step.modifiers,
          ...(from.expect ? { expect: from.expect } : {}),
          ...(from.follow ? { follow: true } : {}),
        }),
      );
    }
    case 'scroll': {
      // Viewport-relative amounts (Gemini's grid, whole pages) are of the viewport the model saw, or of today's.
      const [w, h] = c.frame
        ? [c.frame.geometry.css.width, c.frame.geometry.css.height]
        : await (await session.driver()).evaluate<[number, number]>('window.__trueclick.metrics()');
      const viewport = { x: w, y: h };
      const delta = scrollCss(step.amount, c.req, c.frame?.geometry, viewport);
      return fromReport(await session.scroll(delta, step.at ? target(step.at) : undefined, step.modifiers));
    }
    case 'type': {
      const r = await session.type(step.text, {
        submit: step.pressEnter,
        clear: step.clearFirst,
        ...(step.at ? { target: target(step.at) } : {}),
        ...(c.signal ? { signal: c.signal } : {}),
      });
      if (r.click && r.click.verdict !== 'OK') return fromReport(r.click);
      const said = typeOutcome(r, step.text);
      return {
        ...done(said.message, r),
        ...(said.verdict !== 'OK' ? { verdict: said.verdict } : {}),
        ...(r.click ? { report: r.click } : {}),
      };
    }
    case 'key': {
      const chord = step.chord.join('+');
      const r = await session.pressKey(chord, {
        repeat: step.repeat,
        ...(c.signal ? { signal: c.signal } : {}),
      });
      return done(`Pressed ${chord}${step.repeat > 1 ? ` ${r.pressed} times` : ''}.`);
    }
    case 'hold_key':
      await session.holdKeys(step.chord, step.seconds * 1000, c.signal);
      return done(`Held ${step.chord.join('+')} for ${step.seconds} s.`);
    case 'key_down':
    case 'key_up':
      await session.keyboard(step.kind === 'key_down' ? 'down' : 'up', step.key);
      return done(`${step.kind === 'key_down' ? 'Pressed down' : 'Released'} ${step.key}.`);
    case 'wait': {
      const r = await session.waitFor({ seconds: step.seconds }, c.signal);
      return done(`Waited ${r.waitedMs} ms.`);
    }
    case 'screenshot':
      return done('The screenshot is the one this answer carries.');
    case 'zoom': {
      const a = c.css.get(step.from) as Point;
      const b = c.css.get(step.to) as Point;
      const shot = await session.zoom({
        ...(c.frame ? { frame: c.frame.id } : {}),
        units: 'css',
        region: [a.x, a.y, b.x, b.y],
      });
      c.result.zooms.push(shot);
      return done(`Zoomed: frame ${shot.frame.id} shows that region enlarged; its pixels can be clicked by.`);
    }
    case 'cursor_position': {
      const at = session.cursor;
      if (!at || !c.frame) return done('The mouse has not been moved in this session yet.');
      const conv = conventionFor({ model: c.req.model, axis_order: 'xy' }, c.frame.geometry);
      const [x = 0, y = 0] = toConvention(at, conv, c.frame.geometry);
      return done(`The cursor is at (${Math.round(x)}, ${Math.round(y)}) in the model's coordinates.`);
    }
    case 'navigate': {
      const r = await session.navigate(absoluteUrl(step.url), c.signal);
      if (r.dialog) return done(`Leaving the page waits on ${aDialog(r.dialog)}.`, r);
      return done(`Navigated to ${r.url}.`, r);
    }
    case 'back':
    case 'forward':
    case 'reload': {
      const r = await session[step.kind](c.signal);
      return done(r.noHistory ? `There was no page to go ${step.kind} to.` : `The tab is at ${r.url}.`);
    }
    case 'tab': {
      const index =
        step.index ?? (step.tabId !== undefined && /^\d+$/.test(step.tabId) ? Number(step.tabId) : undefined);
      if (step.tabId !== undefined && index === undefined)
        throw new ActionError(
          'UNKNOWN_TAB',
          `There is no tab "${step.tabId}".`,
          'Tab ids are the indices list_tabs gives.',
          'tab_id',
        );
      const r = await session.tab(step.action, {
        ...(index !== undefined ? { index } : {}),
        ...(step.url ? { url: absoluteUrl(step.url) } : {}),
      });
      return done(`Tabs: ${r.tabs.map((t) => `${t.index}${t.active ? '*' : ''} ${t.url}`).join(', ')}.`);
    }
    case 'done':
      c.result.done = {
        ...(step.status ? { status: step.status } : {}),
        ...(step.text ? { text: step.text } : {}),
      };
      return {
        status: 'finished',
        message: `The model says it is ${step.status === 'needs_user' ? 'waiting for the user' : `done${step.status ? ` (${step.status})` : ''}`}${step.text ? `: ${step.text}` : ''}.`,
      };
    case 'unsupported':
      return {
        status: 'unsupported',
        message: `${step.name} is not something trueclick does: ${step.reason} ${step.hint}`,
      };
  }
}
