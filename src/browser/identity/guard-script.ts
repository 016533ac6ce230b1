import { IDENTITY_LISTS } from './element-facts.js';
import { pageChanges } from './guard-changes.js';
import { pressEffects } from './guard-effect.js';
import { recordSearch } from './guard-find.js';
import { type Armed, eventJudge } from './guard-judge.js';
import { recordSignatures } from './guard-signature.js';
import { inputWaits } from './guard-wait.js';
import { type IdentityKit, type IdentityLists, identityKit } from './identity.js';
import { liveTreeView } from './live-view.js';
import { recordFinder } from './record-finder.js';

/** The CDP binding through which the guard reports each judged event as it happens. */
export const GUARD_BINDING = '__trueclickEvent';

/**
 * Runs in trueclick's isolated world (never the page's), installed with Page.addScriptToEvaluateOnNewDocument
 * so its window capture listeners are registered before any page script and are first in line.
 *
 * Armed for one checked element and point, it judges each trusted pointer/mouse/click event as it is
 * delivered: an event at the point whose target is not the checked element is stopped before the page's
 * handlers see it. Each judged event is also sent out at once through a CDP binding, so a document that the
 * click tears down (a link, a form, a script that navigates) loses nothing. It also counts DOM mutations,
 * so a click can report how much changed since its frame.
 * The page cannot see `__trueclick`: globals of an isolated world are invisible to the main world.
 */
function guardMain(
  makeKit: <N>(
    v: import('./identity.js').TreeView<N>,
    l: IdentityLists,
    oneMoment?: boolean,
  ) => IdentityKit<N>,
  makeView: typeof liveTreeView,
  makeEffects: typeof pressEffects,
  makeSignatures: typeof recordSignatures,
  makeFind: typeof recordSearch,
  makeWaits: typeof inputWaits,
  makeChanges: typeof pageChanges,
  makeJudge: typeof eventJudge,
  lists: IdentityLists & { binding: string },
): void {
  const w = window as unknown as { __trueclick?: unknown } & Record<string, unknown>;
  if (w.__trueclick) return;
  const state: { armed: Armed | null } = { armed: null };
  const waits = makeWaits();
  // The trusted mouse moves seen, and where the last one was: a look sent behind a move waits for it.
  const moves = { n: 0, x: Number.NaN, y: Number.NaN };

  const view = makeView();
  // One kit per task: the page cannot change the tree while trueclick's own code runs, and the next task
  // (an event the page handles, a later call) reads it afresh.
  let current: IdentityKit<Element> | null = null;
  const kit = () => {
    if (!current) {
      current = makeKit<Element>(view, lists, true);
      queueMicrotask(() => {
        current = null;
      });
    }
    return current;
  };
  const rectOf = (el: Element) => {
    const r = el.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };

  // The same shape as SnapshotDoc.factsOf builds from the snapshot.
  const facts = (el: Element) => {
    const k = kit();
    const { actionable, ...shared } = k.fingerprint(el);
    const out: Record<string, unknown> = { ...shared };
    const input = el as HTMLInputElement;
    if ('value' in el && typeof input.value === 'string' && el.nodeName !== 'BUTTON' && el.nodeName !== 'LI')
      out.value = input.value;
    if (el.nodeName === 'INPUT') out.checked = input.checked;
    const label = el.closest('label') ?? input.labels?.[0];
    if (label) out.labelText = k.text(label);
    if (actionable) {
      const { node, ...control } = actionable;
      out.actionable = { ...control, rect: rectOf(node) };
    }
    const stop = k.blocked(el);
    if (stop) out.blocked = { reason: stop.reason, tag: stop.by.nodeName, text: k.text(stop.by) };
    if ((el.nodeName === 'INPUT' || el.nodeName === 'TEXTAREA') && (el as HTMLInputElement).readOnly)
      out.readonly = true;
    // What the approval gate asks about (a POST form's submit): the control the press reaches.
    const submit = (actionable?.node ?? el) as HTMLButtonElement;
    if (
      (submit.nodeName === 'BUTTON' || submit.nodeName === 'INPUT') &&
      submit.type === 'submit' &&
      submit.form
    )
      out.submits = {
        method: (submit.getAttribute('formmethod') ?? submit.form.method ?? 'get').toLowerCase(),
        action: submit.formAction || submit.form.action,
      };
    out.rect = rectOf(el);
    const rec = shared.recordParts ? k.record(el)?.node : undefined;
    if (rec) out.partTimes = k.partOwners(rec).map(changes.ticks);
    watchAround(el, rec ?? null);
    return out;
  };

  /** The element the page's hit-test finds at (x, y), through open shadow roots. */
  const rawAt = (x: number, y: number): Element | null => {
    let el = document.elementFromPoint(x, y);
    for (let i = 0; el?.shadowRoot && i < 32; i++) {
      const inner: Element | null = el.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el;
  };
  /** The element a click at (x, y) reaches, named as the snapshot names it. */
  const deepAt = (x: number, y: number): Element | null => {
    const el = rawAt(x, y);
    return el ? kit().canonical(el) : null;
  };
  const composedContains = (outer: Element, inner: Element) => {
    for (let x: Element | null = inner; x; x = view.parent(x)) if (x === outer) return true;
    return false;
  };

  // Mutations counted, texts that tick, shadow trees watched (guard-changes.ts).
  const changes = makeChanges(view, (records) => {
    if (effects.recording()) for (const r of records) effects.note(r);
    if (state.armed) state.armed.dirty = true;
  });
  const { watchAround } = changes;
  // What a press did to the page (guard-effect.ts): a text that ticked lately is the page living, not the press.
  const effects = makeEffects(kit, (el) => changes.ticks(el).length > 0);

  // What the checked element and its record are, and the live half of compare-facts.ts judge (guard-signature.ts).
  const { signature, judgeSince } = makeSignatures(kit, changes.ticks);
  const onEvent = makeJudge({
    armed: () => state.armed,
    expire: () => {
      state.armed = null;
    },
    kit,
    signature,
    judgeSince,
    pressed: (a) => effects.start(a.el, a.rec),
    seen: () => waits.seen(),
    facts,
    binding: lists.binding,
  });
  for (const type of [
    'pointerdown',
    'pointerup',
    'mousedown',
    'mouseup',
    'click',
    'auxclick',
    'dblclick',
    'mousemove',
    'contextmenu',
  ]) {
    // An event a page's script set off while it runs (a label's click passed to its control) is judged
    // inside the page's task: the kit starts afresh there, not from what an earlier event of that task read.
    window.addEventListener(
      type,
      (ev) => {
        current = null;
        onEvent(ev);
      },
      true,
    );
  }
  window.addEventListener(
    'mousemove',
    (ev) => {
      if (!ev.isTrusted) return;
      moves.n++;
      moves.x = ev.clientX;
      moves.y = ev.clientY;
      waits.seen();
    },
    true,
  );

  // Elements read by recent looks, by token, for a second look without a hit-test (rearm).
  const looks = new Map<string, Element>();
  const api = {
    facts,
    // The hit-test may name a text node, a shadow root or a ::before box: the element is their owner.
    owner: (node: unknown): Element => {
      let n = node as { nodeType?: number; parentNode?: Node | null; element?: unknown } | null;
      if (n && n.nodeType === 3) n = n.parentNode ?? null;
      // A text node straight inside a shadow root can come back as the root itself.
      if (n instanceof ShadowRoot) n = n.host;
      if (n && !(n instanceof Element) && n.element instanceof Element) n = n.element as Element;
      if (!(n instanceof Element)) throw new Error('trueclick: the hit-test named no element');
      return n;
    },
    canonical: (el: Element) => kit().canonical(el),
    effect: effects.read,
    deepAt,
    composedContains,
    arm: (
      el: Element,
      x: number,
      y: number,
      ms: number,
      token: string,
      pressOnly: boolean,
      known: { count: number; indexes: number[] } | null,
    ) => {
      const now = performance.now();
      let rec: Element | null = null;
      let distinct: boolean[] = [];
      try {
        rec = kit().record(el)?.node ?? null;
        distinct = (rec && kit().uniqueParts(el)) || [];
      } catch {
        rec = null;
      }
      watchAround(el, rec);
      const base = signature(el, rec);
      // Parts the check already saw ticking, if the record still has the shape it had then.
      const tickingParts = new Set(known && known.count === base.parts.length ? known.indexes : []);
      const a: Armed = {
        el,
        rec,
        changed: null,
        base,
        tickingParts,
        dirty: false,
        distinct,
        x,
        y,
        token,
        pressOnly,
        armedAt: now,
        expires: now + ms,
        events: [],
      };
      state.armed = a;
      return now;
    },
    // withEffect: the press's effect is read (and ended) in the same call, once its events are in.
    disarm: (token?: string, withEffect?: boolean) => {
      const a = state.armed;
      if (a && token && a.token !== token) return null;
      state.armed = null;
      if (!a) return null;
      return {
        armedAt: a.armedAt,
        token: a.token,
        events: a.events,
        ...(withEffect ? { effect: effects.read() } : {}),
      };
    },
    mutations: () => changes.count(),
    metrics: () => [
      innerWidth,
      innerHeight,
      devicePixelRatio,
      changes.count(),
      document.getElementsByTagName('*').length,
    ],
    /** The element INSPECT_AND_ARM named (read by CANONICAL right after). */
    picked: null as Element | null,
    readArm: (
      el: Element,
      x: number,
      y: number,
      ms: number,
      selector: string | null,
      token: string,
      pressOnly: boolean,
      ticking: { count: number; indexes: number[] } | null,
    ) => {
      looks.set(token, el);
      if (looks.size > 8) looks.delete(looks.keys().next().value as string);
      const f = facts(el);
      if (selector) {
        try {
          f.matchesSelector = el.matches(selector) || !!el.closest(selector);
        } catch (e) {
          f.selectorError = String((e as Error)?.message || e);
        }
      }
      const top = deepAt(x, y);
      f.underPoint = !!top && composedContains(el, top);
      if (!f.underPoint && top) f.onTop = facts(top);
      f.mutations = changes.count();
      f.moves = moves.n;
      // ms 0: look only (browser_point, or a second look that may not be adopted); an arming stays as it is.
      f.armedAt = ms > 0 ? api.arm(el, x, y, ms, token, !!pressOnly, ticking) : performance.now();
      return f;
    },
    // The first look in one call (hit-test.ts firstLook): the facts as JSON, the element read and the raw
    // hit as nodes, so the caller can check that CDP's hit-test named that very node.
    // The viewport comes with it: its CSS size and where it is scrolled to (Page.getLayoutMetrics' numbers).
    lookAt: (x: number, y: number, selector: string | null, token: string) => {
      const vv = visualViewport;
      const view = [innerWidth, innerHeight, vv ? vv.pageLeft : scrollX, vv ? vv.pageTop : scrollY];
      const raw = rawAt(x, y);
      if (!raw) return { view };
      const el = kit().canonical(raw);
      const f = api.readArm(el, x, y, 0, selector, token, false, null);
      return { view, json: JSON.stringify(f), el, raw };
    },
    // Where a record went (follow.ts): guard-find.ts.
    findRecord: makeFind(view, kit, facts, deepAt, composedContains),
    // The element an earlier look read, if the page's own hit-test still finds exactly it at the point.
    rearm: (seenToken: string, x: number, y: number, ...rest: unknown[]) => {
      const el = looks.get(seenToken);
      if (!el?.isConnected || deepAt(x, y) !== el) return null;
      return (api.readArm as (...a: unknown[]) => unknown)(el, x, y, ...rest);
    },
    // rearm, sent right behind trueclick's mouse move to (x, y): run once the page has handled that move
    // (the `moves` after `before`); null when it did not come in time, and the caller looks after CDP's ack.
    rearmAfterMove: (before: number, seenToken: string, x: number, y: number, ...rest: unknown[]) => {
      const there = () => moves.n > before && Math.abs(moves.x - x) <= 1 && Math.abs(moves.y - y) <= 1;
      return waits.until(there, 150).then((ok) => (ok ? api.rearm(seenToken, x, y, ...rest) : null));
    },
    // disarm with the effect, sent with the press: run once the page has handled the `ups`-th release of
    // this arming; null when it did not come in time (the caller disarms after CDP's ack).
    disarmAfter: (token: string, ups: number) => {
      const a = state.armed;
      if (a?.token !== token) return null;
      const released = () => a.events.filter((e) => e.type === 'mouseup').length >= ups;
      return waits.until(released, 1000).then((ok) => (ok ? api.disarm(token, true) : null));
    },
  };
  w.__trueclick = api;
}

export const GUARD_WORLD = 'trueclick';
const LISTS = { ...IDENTITY_LISTS, binding: GUARD_BINDING };
// The identity kit travels as source: the page runs the very functions the snapshot side calls. The kit
// calls the record finder by name, so its source is declared beside it.
export const GUARD_SOURCE = `(() => {
const recordFinder = ${recordFinder.toString()};
(${guardMain.toString()})(${[
  identityKit,
  liveTreeView,
  pressEffects,
  recordSignatures,
  recordSearch,
  inputWaits,
  pageChanges,
  eventJudge,
]
  .map((f) => f.toString())
  .join(', ')}, ${JSON.stringify(LISTS)});
})();`;

/**
 * Called on the hit node (as `this`) in the isolated world: name it as the snapshot does (a node in a
 * shadow tree stands for its host), read its facts and arm the guard for it. `retargeted` tells the caller
 * that the armed element is not `this`, so its backendNodeId must be looked up.
 */
export const INSPECT_AND_ARM = `function (x, y, ms, selector, token, pressOnly, ticking) {
  const g = window.__trueclick;
  let el = g.canonical(g.owner(this));
  // The page replaced the hit node in the moment since the hit-test (a grid cell redrawn on a price tick):
  // what is at the point now is what a click would reach.
  if (!el.isConnected) el = g.deepAt(x, y) || el;
  g.picked = el;
  const f = g.readArm(el, x, y, ms, selector, token, pressOnly, ticking);
  f.retargeted = el !== this;
  return f;
}`;

/**
 * The element an earlier look (`seenToken`) read, read and armed again in one call, if it is still exactly
 * what the page's own hit-test finds at the point (through open shadow roots); null otherwise, and then the
 * caller hit-tests anew. A closed shadow root or a frame at the point never matches, so those always take
 * the full way.
 */
export function rearmExpression(seenToken: string, args: unknown[], afterMoves?: number): string {
  const list = (v: unknown[]) => v.map((x) => JSON.stringify(x ?? null)).join(', ');
  // Sent right behind a mouse move: the page runs it once it has handled that move (guard-wait.ts).
  return afterMoves === undefined
    ? `window.__trueclick.rearm(${list([seenToken, ...args])})`
    : `window.__trueclick.rearmAfterMove(${list([afterMoves, seenToken, ...args])})`;
}

/** Called on the hit node right after INSPECT_AND_ARM: the element it read and armed. */
export const CANONICAL =
  'function () { const g = window.__trueclick; const p = g.picked; g.picked = null; return p || g.canonical(g.owner(this)); }';
