import type { InputOutcome, PageDriver } from './page-driver.js';

type Point = { x: number; y: number };
export type MouseButton = 'left' | 'right' | 'middle' | 'back' | 'forward';
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

/** CDP's bitmasks: Input.dispatchMouseEvent `modifiers` and `buttons`. */
const MODIFIER_BITS: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
const BUTTON_BITS: Record<MouseButton, number> = { left: 1, right: 2, middle: 4, back: 8, forward: 16 };

export const modifierMask = (mods: readonly Modifier[] = []) =>
  mods.reduce((m, k) => m | MODIFIER_BITS[k], 0);

export interface ClickOptions {
  button?: MouseButton;
  clickCount?: number;
  modifiers?: readonly Modifier[];
}

/**
 * Trusted mouse events. Each press goes out together with its release: the browser hands them to the page
 * in order, the guard judges each as it comes, and the page has no round trip between them in which to redraw
 * the element (a grid that redrew the cell on a price tick between an awaited press and its release made the
 * browser send no click). The next click of a double click waits for the one before it, and none goes
 * after one that raised a dialog; a release already sent behind a press that raised one reaches the page once
 * the dialog is answered, as the rest of that click. A check sent beside input must wait in the page for that
 * input (guard-wait.ts): CDP does not order evaluations against input (baselines.md).
 */
export async function dispatchClick(
  driver: PageDriver,
  p: Point,
  opts: ClickOptions = {},
  /** Called once the last release is sent, before its acknowledgement. */
  releasing?: () => void,
): Promise<InputOutcome> {
  const button = opts.button ?? 'left';
  const count = opts.clickCount ?? 1;
  for (let i = 1; i <= count; i++) {
    const o = { button, clickCount: i, modifiers: opts.modifiers };
    const pair = [mouseButton(driver, 'mousePressed', p, o), mouseButton(driver, 'mouseReleased', p, o)];
    // Whichever fails first is the one reported; the other must not go unhandled.
    for (const sent of pair) sent.catch(() => {});
    if (i === count) releasing?.();
    for (const sent of pair) {
      const out = await sent;
      if (!out.sent) return out;
    }
  }
  return { sent: true };
}

/** One press or release of a mouse button, with the buttons CDP must report held while it is down. */
function mouseButton(
  driver: PageDriver,
  type: 'mousePressed' | 'mouseReleased',
  p: Point,
  o: { button: MouseButton; clickCount: number; modifiers?: readonly Modifier[] | undefined },
): Promise<InputOutcome> {
  return driver.input('Input.dispatchMouseEvent', {
    type,
    x: p.x,
    y: p.y,
    button: o.button,
    clickCount: o.clickCount,
    buttons: type === 'mousePressed' ? BUTTON_BITS[o.button] : 0,
    modifiers: modifierMask(o.modifiers),
  });
}

/**
 * Hover first, before the check: an awaited mouseMoved waits for a rendered frame (tens of ms here), which
 * must not sit inside the check → press window.
 */
export function moveMouse(
  driver: PageDriver,
  p: Point,
  modifiers?: readonly Modifier[],
): Promise<InputOutcome> {
  return driver.input('Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x: p.x,
    y: p.y,
    button: 'none',
    modifiers: modifierMask(modifiers),
  });
}

/** Pause between the moves of a drag: SortableJS ignores dragover for 30 ms after each swap it makes. */
const DRAG_PAUSE_MS = 40;
/** Moves along each leg of a drag. */
const DRAG_STEPS = 6;

/**
 * The rest of a drag whose press was already sent: with the left button held, a short first move (past
 * the libraries' drag thresholds, so the drag starts where it was pressed), then paced moves along `via` to
 * `to`, a nudge there so the drop target sees dragover, then the release. Native HTML5 drag and drop follows
 * these plain mouse events in this Chromium (dragstart … drop, no interception), and so do pointer-event
 * libraries.
 */
export async function dragTo(
  driver: PageDriver,
  from: Point,
  to: Point,
  opts: {
    via?: readonly Point[];
    modifiers?: readonly Modifier[];
    beforeRelease?: () => Promise<void>;
    /** Keep the button down at the end (a model's left_mouse_down … left_mouse_up across actions). */
    hold?: boolean;
  } = {},
): Promise<InputOutcome> {
  const modifiers = modifierMask(opts.modifiers);
  const move = (p: Point) =>
    driver.input('Input.dispatchMouseEvent', {
      type: 'mouseMoved',
      x: p.x,
      y: p.y,
      button: 'left',
      buttons: BUTTON_BITS.left,
      modifiers,
    });
  const pause = () => new Promise((r) => setTimeout(r, DRAG_PAUSE_MS));
  const first = opts.via?.[0] ?? to;
  const d = Math.hypot(first.x - from.x, first.y - from.y) || 1;
  const start = { x: from.x + ((first.x - from.x) * 6) / d, y: from.y + ((first.y - from.y) * 6) / d };
  const path: Point[] = [start];
  const legs = [start, ...(opts.via ?? []), to];
  for (let leg = 1; leg < legs.length; leg++) {
    const a = legs[leg - 1] as Point;
    const b = legs[leg] as Point;
    for (let i = 1; i <= DRAG_STEPS; i++)
      path.push({ x: a.x + ((b.x - a.x) * i) / DRAG_STEPS, y: a.y + ((b.y - a.y) * i) / DRAG_STEPS });
  }
  path.push({ x: to.x + 1, y: to.y + 1 }, to);
  for (const p of path) {
    const out = await move(p);
    if (!out.sent) return out;
    await pause();
  }
  await opts.beforeRelease?.();
  if (opts.hold) return { sent: true };
  return releaseAt(driver, to, opts.modifiers);
}

/** The press of a drag (or of a model's left_mouse_down). */
export function pressAt(
  driver: PageDriver,
  p: Point,
  modifiers?: readonly Modifier[],
): Promise<InputOutcome> {
  return mouseButton(driver, 'mousePressed', p, { button: 'left', clickCount: 1, modifiers });
}

export function releaseAt(
  driver: PageDriver,
  p: Point,
  modifiers?: readonly Modifier[],
): Promise<InputOutcome> {
  return mouseButton(driver, 'mouseReleased', p, { button: 'left', clickCount: 1, modifiers });
}

export async function wheel(
  driver: PageDriver,
  at: Point,
  dx: number,
  dy: number,
  modifiers?: readonly Modifier[],
): Promise<InputOutcome> {
  return driver.input('Input.dispatchMouseEvent', {
    type: 'mouseWheel',
    x: at.x,
    y: at.y,
    deltaX: dx,
    deltaY: dy,
    modifiers: modifierMask(modifiers),
  });
}

export async function currentScroll(driver: PageDriver): Promise<Point> {
  const m = await driver.send('Page.getLayoutMetrics', {});
  return { x: m.cssVisualViewport.pageX, y: m.cssVisualViewport.pageY };
}

/** Waits until two readings of the scroll offset agree (a wheel scroll may animate). */
export async function settledScroll(driver: PageDriver, budgetMs = 1500): Promise<Point> {
  const end = Date.now() + budgetMs;
  let last = await currentScroll(driver);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await currentScroll(driver);
    if (now.x === last.x && now.y === last.y) return now;
    last = now;
  }
  return last;
}
