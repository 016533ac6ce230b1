import { IDENTITY_LISTS } from './element-facts.js';
import { type IdentityKit, type IdentityLists, identityKit } from './identity.js';

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
  makeKit: <N>(v: import('./identity.js').TreeView<N>, l: IdentityLists) => IdentityKit<N>,
  lists: IdentityLists & { binding: string },
): void {
  type Armed = {
    el: Element;
    /** The record (row) around el: a change in it after the check means another record, same node. */
    rec: Element | null;
    /** What changed in el or its record since the check, if anything: the event is then stopped. */
    changed: string | null;
    /** Watches el's own open shadow tree, which the document-wide observer does not reach. */
    shadowWatch: MutationObserver | null;
    x: number;
    y: number;
    token: string;
    /** A drag: only the press is judged; the moves, the release and the drop go wherever the drag goes. */
    pressOnly: boolean;
    armedAt: number;
    expires: number;
    events: Array<{
      type: string;
      t: number;
      delivered: boolean;
      target: unknown;
      x: number;
      y: number;
      changed?: string;
    }>;
  };
  const w = window as unknown as { __trueclick?: unknown } & Record<string, unknown>;
  if (w.__trueclick) return;
  const state: { armed: Armed | null; mutations: number } = { armed: null, mutations: 0 };

  const allAttrs = (el: Element) => {
    const out: Record<string, string> = {};
    for (const a of Array.from(el.attributes)) out[a.name.toLowerCase()] = a.value;
    return out;
  };
  const kidsOf = (list: ArrayLike<Node>) => {
    const out: Array<Element | string> = [];
    for (const k of Array.from(list)) {
      if (k.nodeType === 1) out.push(k as Element);
      else if (k.nodeType === 3) out.push(k.nodeValue ?? '');
    }
    return out;
  };
  const inShadow = (n: Element) => n.getRootNode() instanceof ShadowRoot;
  // The flat tree, as DOMSnapshot reports it: an open host's children are its shadow root's, a slot's are
  // the nodes assigned to it (or its fallback content). Closed roots stay closed: assignedSlot is null there.
  const view = {
    parent: (n: Element): Element | null => {
      const slot = n.assignedSlot;
      if (slot) return slot;
      const p = n.parentNode;
      if (p instanceof ShadowRoot) return p.host;
      return p instanceof Element ? p : null;
    },
    inShadow,
    isHost: (n: Element) => n.shadowRoot !== null && !inShadow(n),
    kids: (n: Element) => {
      if (n.shadowRoot) return kidsOf(n.shadowRoot.childNodes);
      if (n instanceof HTMLSlotElement && inShadow(n)) {
        const assigned = n.assignedNodes();
        if (assigned.length > 0) return kidsOf(assigned);
      }
      return kidsOf(n.childNodes);
    },
    tag: (n: Element) => n.nodeName.toUpperCase(),
    attrs: allAttrs,
  };
  const kit = () => makeKit<Element>(view, lists);
  // Attribute names only: no caches of the page's text to go stale, so one kit serves every mutation.
  const names = kit();
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
    out.rect = rectOf(el);
    return out;
  };

  /** The element a click at (x, y) reaches, through open shadow roots, named as the snapshot names it. */
  const deepAt = (x: number, y: number): Element | null => {
    let el = document.elementFromPoint(x, y);
    for (let i = 0; el?.shadowRoot && i < 32; i++) {
      const inner: Element | null = el.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === el) break;
      el = inner;
    }
    return el ? kit().canonical(el) : null;
  };
  const composedContains = (outer: Element, inner: Element) => {
    for (let x: Element | null = inner; x; x = view.parent(x)) if (x === outer) return true;
    return false;
  };

  const report = (a: Armed, e: Armed['events'][number]) => {
    const send = w[lists.binding];
    if (typeof send === 'function') {
      try {
        (send as (s: string) => void)(JSON.stringify({ token: a.token, ...e }));
      } catch {
        // the binding is gone (page closing): the local record still has the event
      }
    }
  };

  // A click on a <label> makes the browser click its control too (a hidden file input behind a styled
  // "Choose file" label, a checkbox beside its text): that second, trusted click is the label doing its
  // job, once the label's own click was delivered, not the page moving something under the point.
  const labelActivation = (a: Armed, ev: Event, path: EventTarget[]) => {
    if (ev.type !== 'click' || !a.events.some((e) => e.delivered && e.type === 'click')) return false;
    const label = a.el instanceof HTMLLabelElement ? a.el : a.el.closest('label');
    const control = label?.control;
    return Boolean(control && path.includes(control));
  };

  const onEvent = (ev: Event) => {
    const a = state.armed;
    if (!a || !ev.isTrusted) return;
    const me = ev as MouseEvent;
    if (performance.now() > a.expires) {
      state.armed = null;
      return;
    }
    if (ev.type === 'mousemove') {
      // Not judged: where the browser delivers the pointer, so trueclick can check it before pressing.
      const e = {
        type: ev.type,
        t: performance.now(),
        delivered: true,
        target: null,
        x: me.clientX,
        y: me.clientY,
      };
      a.events.push(e);
      report(a, e);
      return;
    }
    // A drag stands down once its press reached the element; until then (and if the press was stopped)
    // everything is judged, so the release of a stopped press cannot click something else.
    if (a.pressOnly && a.events.some((e) => e.delivered && e.type !== 'mousemove')) return;
    // Judged wherever it lands: an event away from the armed point is the browser delivering the click
    // somewhere else (it does, into cross-site iframes, after a screenshot), not a reason to let it through.
    const path = ev.composedPath();
    const target = path[0];
    // composedPath, not contains(): inside a web component the target sits in a shadow tree of a.el. The
    // page background counts only as itself, or every cover that slid in would count as delivered.
    const background = a.el === document.documentElement || a.el === document.body;
    const reached =
      (background
        ? target === a.el || target === document.body || target === document.documentElement
        : path.includes(a.el)) || labelActivation(a, ev, path);
    // Same node but new data (a list keyed by index re-rendered it): another record, so it is stopped too.
    const delivered = reached && a.changed === null;
    if (!delivered) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
    const e: Armed['events'][number] = {
      type: ev.type,
      t: performance.now(),
      delivered,
      x: me.clientX,
      y: me.clientY,
      target: null,
    };
    if (reached && a.changed !== null) e.changed = a.changed;
    a.events.push(e);
    // Only a stopped event's target is read; reading facts costs time inside the page's dispatch.
    if (!delivered && target instanceof Element) {
      try {
        e.target = facts(kit().canonical(target));
      } catch {
        // the event is stopped all the same
      }
    }
    report(a, e);
  };
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
    window.addEventListener(type, onEvent, true);
  }

  const touches = (a: Armed, n: Node) =>
    a.el === n || a.el.contains(n) || (a.rec !== null && (a.rec === n || a.rec.contains(n)));
  // After the press reached the element, the page answers it (a ripple span, aria-pressed, a class): only
  // a change of what the element *is* counts then, its identity attributes or text in it or its record.
  const identityChange = (r: MutationRecord) => {
    if (r.type === 'attributes') {
      const name = r.attributeName ?? '';
      return names.isIdentityAttr(name);
    }
    if (r.type === 'characterData') return true;
    const texty = (list: NodeList) => Array.from(list).some((n) => (n.textContent ?? '').trim() !== '');
    return texty(r.addedNodes) || texty(r.removedNodes);
  };
  const noteChanges = (records: MutationRecord[]) => {
    const a = state.armed;
    if (!a || a.changed !== null) return;
    const pressed = a.events.some((e) => e.delivered && e.type !== 'mousemove');
    for (const r of records) {
      if (r.target === a.rec?.parentNode && r.type === 'childList') continue; // rows moved, not changed
      if (!touches(a, r.target) && !(a.el.shadowRoot?.contains(r.target) ?? false)) continue;
      if (pressed && !identityChange(r)) continue;
      a.changed = r.type === 'attributes' ? `its ${r.attributeName} attribute` : 'its content';
      return;
    }
  };
  const observer = new MutationObserver((records) => {
    state.mutations += records.length;
    noteChanges(records);
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });

  w.__trueclick = {
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
    deepAt,
    composedContains,
    arm: (el: Element, x: number, y: number, ms: number, token: string, pressOnly: boolean) => {
      const now = performance.now();
      state.armed?.shadowWatch?.disconnect();
      let rec: Element | null = null;
      try {
        rec = kit().record(el)?.node ?? null;
      } catch {
        rec = null;
      }
      const a: Armed = {
        el,
        rec,
        changed: null,
        shadowWatch: null,
        x,
        y,
        token,
        pressOnly,
        armedAt: now,
        expires: now + ms,
        events: [],
      };
      if (el.shadowRoot) {
        a.shadowWatch = new MutationObserver(noteChanges);
        a.shadowWatch.observe(el.shadowRoot, {
          childList: true,
          subtree: true,
          attributes: true,
          characterData: true,
        });
      }
      state.armed = a;
      return now;
    },
    disarm: (token?: string) => {
      const a = state.armed;
      if (a && token && a.token !== token) return null;
      a?.shadowWatch?.disconnect();
      state.armed = null;
      return a ? { armedAt: a.armedAt, token: a.token, events: a.events } : null;
    },
    mutations: () => state.mutations,
    metrics: () => [innerWidth, innerHeight, devicePixelRatio, state.mutations],
  };
}

export const GUARD_WORLD = 'trueclick';
const LISTS = { ...IDENTITY_LISTS, binding: GUARD_BINDING };
// The identity kit travels as source: the page runs the very function the snapshot side calls.
export const GUARD_SOURCE = `(${guardMain.toString()})(${identityKit.toString()}, ${JSON.stringify(LISTS)});`;

/**
 * Called on the hit node (as `this`) in the isolated world: name it as the snapshot does (a node in a
 * shadow tree stands for its host), read its facts and arm the guard for it. `retargeted` tells the caller
 * that the armed element is not `this`, so its backendNodeId must be looked up.
 */
export const INSPECT_AND_ARM = `function (x, y, ms, selector, token, pressOnly) {
  const g = window.__trueclick;
  const el = g.canonical(g.owner(this));
  const f = g.facts(el);
  f.retargeted = el !== this;
  if (selector) { try { f.matchesSelector = el.matches(selector) || !!el.closest(selector); } catch (e) { f.selectorError = String(e && e.message || e); } }
  const top = g.deepAt(x, y);
  f.underPoint = !!top && g.composedContains(el, top);
  if (!f.underPoint && top) f.onTop = g.facts(top);
  f.mutations = g.mutations();
  // ms 0: look only (browser_point, or a second look that may not be adopted); an arming stays as it is.
  f.armedAt = ms > 0 ? g.arm(el, x, y, ms, token, !!pressOnly) : performance.now();
  return f;
}`;

/** Called on the hit node: the element the guard armed (its shadow host when it sits in a shadow tree). */
export const CANONICAL = 'function () { const g = window.__trueclick; return g.canonical(g.owner(this)); }';
