// The user's page, as the URL matrix reads it: its targets found by selector or accessible name, whether each
// can be clicked at all in this world (in view, not zero-size, not under a cookie banner), and a recorder that
// says which target each click reached while keeping the page from acting on it.

import type { Locator, Page } from 'playwright-core';
import type { CssBox, XY } from '../geometry/index.js';
import type { World } from './oracle.js';

/** Roles searched for a target given as an accessible name (`name=Sign in`). */
const NAMED_ROLES = [
  'button',
  'link',
  'checkbox',
  'radio',
  'textbox',
  'combobox',
  'menuitem',
  'tab',
  'option',
  'switch',
] as const;

/**
 * The element a target line names: a Playwright selector (CSS by default; `text=`, `role=` and the other
 * engines work too), or `name=<accessible name>` for the first control of that name. A page that renders after
 * its load event (a single-page app) gets until `deadline` (Date.now() ms) to show it; null when none matches.
 */
export async function locate(page: Page, target: string, deadline: number): Promise<Locator | null> {
  const candidates = target.startsWith('name=')
    ? NAMED_ROLES.map((role) => page.getByRole(role, { name: target.slice(5).trim(), exact: true }))
    : [page.locator(target)];
  do {
    for (const l of candidates) if ((await l.count()) > 0) return l.first();
    await new Promise((r) => setTimeout(r, 100));
  } while (Date.now() < deadline);
  return null;
}

/** Where a target is in this world, or why a click there cannot reach it (not a trueclick miss). */
export type TargetState = { box: CssBox; unclickable?: string };

/** The recorder's state on the page's window (main world). */
interface Recorder {
  targets: Element[];
  clicks: Array<{ trusted: boolean; inside: boolean[] }>;
  /** The topmost element at a viewport point (CSS px), through open shadow roots. */
  topmost(x: number, y: number): Element | null;
}
type RecorderWindow = { __tcMatrix: Recorder };

/**
 * Installs the recorder (main world, capture phase on window, after the page's load): every pointer and
 * mouse event is stopped and its default prevented, so no link is followed, no form submitted and no
 * handler of the page runs; each click is logged with the targets its composed path holds. Targets are
 * kept by reference (window.__tcMatrix.targets), so the page's DOM is not marked.
 */
export async function installRecorder(page: Page, targets: Array<Locator | null>): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as Partial<RecorderWindow>;
    if (w.__tcMatrix) return;
    const state: Recorder = {
      targets: [],
      clicks: [],
      topmost: (x, y) => {
        let el = document.elementFromPoint(x, y);
        while (el?.shadowRoot) {
          const inner = el.shadowRoot.elementFromPoint(x, y);
          if (!inner || inner === el) break;
          el = inner;
        }
        return el;
      },
    };
    w.__tcMatrix = state;
    const stop = (e: Event) => {
      if (e.type === 'click')
        state.clicks.push({
          trusted: e.isTrusted,
          inside: state.targets.map((t) => Boolean(t) && e.composedPath().includes(t)),
        });
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    for (const type of [
      'pointerdown',
      'mousedown',
      'pointerup',
      'mouseup',
      'click',
      'dblclick',
      'auxclick',
      'contextmenu',
    ])
      window.addEventListener(type, stop, true);
  });
  for (const [i, l] of targets.entries()) {
    if (!l) continue;
    await l.evaluate((el, k) => {
      (window as unknown as RecorderWindow).__tcMatrix.targets[k] = el;
    }, i);
  }
}

/** How many clicks the recorder has logged. */
export function clicksLogged(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as RecorderWindow).__tcMatrix.clicks.length);
}

/** The clicks the recorder saw since `from`: trusted or not, and which targets each one reached. */
export function clicksSince(page: Page, from: number): Promise<Recorder['clicks']> {
  return page.evaluate((n) => (window as unknown as RecorderWindow).__tcMatrix.clicks.slice(n), from);
}

/** Each target's box now (CSS px of the viewport) and why it cannot be clicked, if it cannot. */
export async function targetStates(page: Page, count: number): Promise<Array<TargetState | null>> {
  return page.evaluate((n) => {
    const { targets, topmost } = (window as unknown as RecorderWindow).__tcMatrix;
    const de = document.documentElement;
    const name = (el: Element) =>
      `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${Array.from(el.classList).slice(0, 2).join('.')}` : ''}>`;
    // What covers a target, by the component it belongs to: the toast or banner, not the <small> inside it.
    const cover = (el: Element) => {
      for (let n: Element | null = el; n; n = n.parentElement) {
        const role = n.getAttribute('role');
        if (n.id || role === 'alert' || role === 'dialog' || role === 'banner' || role === 'status') {
          const named = `${name(n)}${role ? ` role=${role}` : ''}`;
          return n === el ? named : `${name(el)} in ${named}`;
        }
      }
      return name(el);
    };
    const holds = (t: Element, el: Element | null) => {
      for (let n: Node | null = el; n; n = n.parentNode ?? (n as ShadowRoot).host ?? null)
        if (n === t) return true;
      return false;
    };
    const out: Array<{
      box: { left: number; top: number; right: number; bottom: number };
      unclickable?: string;
    } | null> = [];
    for (let i = 0; i < n; i++) {
      const t = targets[i];
      if (!t?.isConnected) {
        out.push(null);
        continue;
      }
      const r = t.getBoundingClientRect();
      const box = { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      const cx = (r.left + r.right) / 2;
      const cy = (r.top + r.bottom) / 2;
      if (r.width < 1 || r.height < 1)
        out.push({ box, unclickable: `zero-size (${r.width}×${r.height} CSS px)` });
      else if (cx < 0 || cy < 0 || cx >= de.clientWidth || cy >= de.clientHeight)
        out.push({
          box,
          unclickable: `off-screen (centre at CSS (${Math.round(cx)}, ${Math.round(cy)}), viewport ${de.clientWidth}×${de.clientHeight})`,
        });
      else {
        const top = topmost(cx, cy);
        out.push(
          holds(t, top)
            ? { box }
            : { box, unclickable: `covered by ${top ? cover(top) : 'nothing hit-testable'}` },
        );
      }
    }
    return out;
  }, count);
}

/**
 * Whether a point of the viewport (CSS px) is on a scrollbar: the page's or an inner scroller's. A press
 * there scrolls before any page listener hears of it, so the recorder (installed first) cannot stop it.
 */
export function onScrollbar(page: Page, p: XY): Promise<boolean> {
  return page.evaluate(({ x, y }) => {
    const de = document.documentElement;
    if (x >= de.clientWidth || y >= de.clientHeight) return true;
    const el = (window as unknown as RecorderWindow).__tcMatrix.topmost(x, y);
    if (!el || el.tagName === 'IFRAME') return false;
    // A scrollbar's point hits the scroller itself: inside its borders, outside its client box (the bar is
    // left of it in right-to-left).
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const inner = {
      left: r.left + Number.parseFloat(cs.borderLeftWidth),
      right: r.right - Number.parseFloat(cs.borderRightWidth),
      top: r.top + Number.parseFloat(cs.borderTopWidth),
      bottom: r.bottom - Number.parseFloat(cs.borderBottomWidth),
    };
    if (x < inner.left || x >= inner.right || y < inner.top || y >= inner.bottom) return false;
    const client = { left: r.left + el.clientLeft, top: r.top + el.clientTop };
    const barX = el.scrollHeight > el.clientHeight && (x >= client.left + el.clientWidth || x < client.left);
    const barY = el.scrollWidth > el.clientWidth && y >= client.top + el.clientHeight;
    return barX || barY;
  }, p);
}

/** How long a page may take to render its targets after load (a single-page app fetching its data). */
export const TARGET_WAIT_MS = 10_000;

/** How long targets are looked for again before a run is redone (a node the page replaced). */
export const REBIND_MS = 2000;

/**
 * Finds the targets (a page gets `waitMs` to render them) and installs the recorder on them; called again,
 * it points the recorder at the elements the selectors find now.
 */
export async function recordTargets(page: Page, targets: string[], waitMs = TARGET_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  const located: Array<Locator | null> = [];
  for (const t of targets) located.push(await locate(page, t, deadline));
  await installRecorder(page, located);
}

/** Each recorded target's state now, and the page's viewport, scroll and devicePixelRatio (the oracle's truth). */
export interface Reading {
  states: Array<TargetState | null>;
  world: World;
  /** The page replaced a node the recorder holds (a re-render): the targets are to be found again. */
  replaced: boolean;
}

/** How long a reading waits for the page's transitions to end once the mouse rested. */
const TRANSITION_MS = 500;

/**
 * The targets as a frame will show them, after two frames; `rest` first moves the mouse to a corner (no hover
 * state), off when the caller opened something by hover.
 */
export async function readTargets(page: Page, count: number, rest = true): Promise<Reading> {
  if (rest) await page.mouse.move(0, 0);
  // A hover style with a transition (a card that lifts) is still on its way back two frames later; a page
  // whose transitions never end (a progress bar set anew every tick) is read after TRANSITION_MS.
  await page.evaluate(
    async (ms) => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      if (ms <= 0) return;
      await Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a instanceof CSSTransition)
            .map((a) => a.finished.catch(() => {})),
        ),
        new Promise((r) => setTimeout(r, ms)),
      ]);
    },
    rest ? TRANSITION_MS : 0,
  );
  const states = await targetStates(page, count);
  const { world, replaced } = await page.evaluate(() => ({
    world: { w: innerWidth, h: innerHeight, sx: scrollX, sy: scrollY, dpr: devicePixelRatio },
    replaced: (window as unknown as RecorderWindow).__tcMatrix.targets.some((t) => t && !t.isConnected),
  }));
  return { states, world, replaced };
}

/** How long after load the page is left to settle before its targets are judged. */
export const SETTLE_MS = 500;
/**
 * How long the page may keep the network busy after load (a single-page app fetching its data, a component
 * library loading its chunks) before its targets are read anyway: a page that polls never goes quiet.
 */
export const QUIET_MS = 15_000;

/**
 * The wait for quiet after a page that never went quiet (it polls, streams, keeps a socket busy): the next
 * load of the same URL is not given the whole QUIET_MS again.
 */
export const QUIET_AGAIN_MS = 2000;

/** How long the loads of one URL wait for quiet: QUIET_MS until a load never went quiet, then QUIET_AGAIN_MS. */
export interface QuietWait {
  ms: number;
}
export const quietWait = (): QuietWait => ({ ms: QUIET_MS });

/**
 * Waits for the page to come to rest after its load: components that load their code after the load event
 * (Shoelace's autoloader from a CDN) lay the page out anew when it arrives, and cookie banners and toasts
 * come up a moment later.
 */
export async function settle(page: Page, wait: QuietWait): Promise<void> {
  const quiet = await page
    .waitForLoadState('networkidle', { timeout: wait.ms })
    .then(() => true)
    .catch(() => false);
  if (!quiet) wait.ms = QUIET_AGAIN_MS;
  await page.waitForTimeout(SETTLE_MS);
}

/** Readings of a world: a run in which a target moved is thrown away and clicked again, this many times in all. */
export const READINGS = 3;

const boxText = (b: CssBox) =>
  `(${Math.round(b.left)}, ${Math.round(b.top)}) ${Math.round(b.right - b.left)}×${Math.round(b.bottom - b.top)}`;

/** How far (CSS px) an edge may move and the reading still hold: a text beside it ticked a digit narrower. */
const BOX_SLACK = 1;
const sameBox = (a: CssBox, b: CssBox) =>
  Math.max(
    Math.abs(a.left - b.left),
    Math.abs(a.top - b.top),
    Math.abs(a.right - b.right),
    Math.abs(a.bottom - b.bottom),
  ) <= BOX_SLACK;

/** Why each target's reading no longer holds (its box moved, it went away), by target index. */
function movedSince(was: Reading, now: Reading): Map<number, string> {
  const moved = new Map<number, string>();
  for (const [i, a] of was.states.entries()) {
    const b = now.states[i];
    if (!a || a.unclickable) continue;
    if (!b) moved.set(i, 'it went away during the run');
    else if (b.unclickable) moved.set(i, `it became ${b.unclickable} during the run`);
    else if (!sameBox(a.box, b.box))
      moved.set(i, `its box moved during the run: CSS ${boxText(a.box)} → ${boxText(b.box)}`);
  }
  return moved;
}

export interface SteadyOptions {
  /** Rest the mouse in a corner before each reading (readTargets). */
  rest: boolean;
  /** Before a run is redone: find the targets again (recordTargets), scroll back. */
  again: () => Promise<void>;
}

/** What a run's clicks are read against. */
export interface RunContext {
  /**
   * The recorder's read position, at its log's length when the run began: a late click of a run thrown
   * away is not read as one of this run's.
   */
  seen: { n: number };
  /**
   * Reads the targets again, after a cell: one that moved and came back within the run (a carousel that
   * turned full circle) redoes it too. Nothing is read where the mouse must not rest (a menu open on hover).
   */
  check: () => Promise<void>;
}

/**
 * Reads the targets, runs `click` on that reading (a screenshot and its cells), and reads them again: the truth
 * of a cell is the box its frame showed, so a run in which a target moved, went away or came under something
 * (at the end, or at a `check` between cells) is thrown away and run anew, up to READINGS times. `moved` holds
 * why, for the targets that still did in the last run, or that went away earlier and are not found in it.
 */
export async function steadyRun<T>(
  page: Page,
  count: number,
  click: (reading: Reading, run: RunContext) => Promise<T>,
  opts: SteadyOptions,
): Promise<{ out: T; moved: Map<number, string> }> {
  const gone = new Map<number, string>();
  for (let n = 1; ; n++) {
    // A target the page re-rendered after it was found, and until this reading was taken, is found again: else
    // the run reads a node that is gone, its cells match no element, and nothing moved during it to redo it.
    let reading = await readTargets(page, count, opts.rest);
    for (let k = 0; k < READINGS && reading.replaced; k++) {
      await opts.again();
      reading = await readTargets(page, count, opts.rest);
    }
    const during = new Map<number, string>();
    const note = (m: Map<number, string>) => {
      for (const [i, why] of m) if (!during.has(i)) during.set(i, why);
    };
    const check = async () => {
      if (opts.rest) note(movedSince(reading, await readTargets(page, count, true)));
    };
    const out = await click(reading, { seen: { n: await clicksLogged(page) }, check });
    const moved = movedSince(reading, await readTargets(page, count, opts.rest));
    for (const [i, why] of during) if (!moved.has(i)) moved.set(i, why);
    if (moved.size === 0 || n === READINGS) {
      for (const [i, why] of gone) if (!reading.states[i] && !moved.has(i)) moved.set(i, why);
      return { out, moved };
    }
    for (const [i, why] of moved) if (!gone.has(i)) gone.set(i, why);
    await page.waitForTimeout(SETTLE_MS);
    await opts.again();
  }
}

/** The reason a target that kept moving is reported with instead of its cells' clicks. */
export const movingReason = (why: string) => `moving (${why}, ${READINGS} runs)`;
