import { ACTIONABLE_ROLES, ACTIONABLE_TAGS, CONTEXT_ROLES, CONTEXT_SELECTOR_TAGS } from './element-facts.js';

/**
 * Runs in trueclick's isolated world (never the page's), installed with Page.addScriptToEvaluateOnNewDocument
 * so its window capture listeners are registered before any page script and are first in line.
 *
 * Armed for one checked element and point, it judges each trusted pointer/mouse/click event as it is
 * delivered: an event at the point whose target is not the checked element is stopped before the page's
 * handlers see it. It also counts DOM mutations, so a click can report how much changed since its frame.
 * The page cannot see `__trueclick`: globals of an isolated world are invisible to the main world.
 */
function guardMain(lists: {
  contextTags: string[];
  contextRoles: string[];
  actionableSelector: string;
}): void {
  type Armed = {
    el: Element;
    x: number;
    y: number;
    armedAt: number;
    expires: number;
    events: Array<{ type: string; t: number; delivered: boolean; target: unknown }>;
  };
  const w = window as unknown as { __trueclick?: unknown };
  if (w.__trueclick) return;
  const state: { armed: Armed | null; mutations: number } = { armed: null, mutations: 0 };
  const TEXT_CAP = 4000;
  const CONTEXT_TAGS = lists.contextTags;
  const CONTEXT_ROLES = lists.contextRoles;

  const facts = (el: Element) => {
    const attrs: Record<string, string> = {};
    for (const a of Array.from(el.attributes)) attrs[a.name.toLowerCase()] = a.value;
    const out: Record<string, unknown> = {
      tag: el.nodeName.toUpperCase(),
      attrs,
      text: (el.textContent ?? '').slice(0, TEXT_CAP),
    };
    const input = el as HTMLInputElement;
    if ('value' in el && typeof input.value === 'string' && el.nodeName !== 'BUTTON' && el.nodeName !== 'LI')
      out.value = input.value;
    if (el.nodeName === 'INPUT') out.checked = input.checked;
    const label = el.closest('label') ?? input.labels?.[0];
    if (label) out.labelText = label.textContent ?? '';
    for (let p = el.parentElement; p; p = p.parentElement) {
      const role = p.getAttribute('role');
      if (CONTEXT_TAGS.includes(p.nodeName) || (role && CONTEXT_ROLES.includes(role))) {
        out.contextText = (p.textContent ?? '').slice(0, TEXT_CAP);
        break;
      }
    }
    const r = el.getBoundingClientRect();
    out.rect = { x: r.x, y: r.y, width: r.width, height: r.height };
    if (!el.matches(lists.actionableSelector)) {
      const owner = el.parentElement?.closest(lists.actionableSelector);
      if (owner) {
        const ownerAttrs: Record<string, string> = {};
        for (const a of Array.from(owner.attributes)) ownerAttrs[a.name.toLowerCase()] = a.value;
        out.actionable = {
          tag: owner.nodeName.toUpperCase(),
          attrs: ownerAttrs,
          text: (owner.textContent ?? '').slice(0, TEXT_CAP),
        };
        const or = owner.getBoundingClientRect();
        (out.actionable as Record<string, unknown>).rect = {
          x: or.x,
          y: or.y,
          width: or.width,
          height: or.height,
        };
      }
    }
    return out;
  };

  const onEvent = (ev: Event) => {
    const a = state.armed;
    if (!a || !ev.isTrusted) return;
    const me = ev as MouseEvent;
    if (performance.now() > a.expires) {
      state.armed = null;
      return;
    }
    // The user's own mouse elsewhere is neither judged nor blocked.
    if (Math.abs(me.clientX - a.x) > 2 || Math.abs(me.clientY - a.y) > 2) return;
    const path = ev.composedPath();
    const target = path[0];
    // composedPath, not contains(): inside a web component the target sits in a shadow tree of a.el.
    const delivered = path.includes(a.el);
    a.events.push({
      type: ev.type,
      t: performance.now(),
      delivered,
      // Only a stopped event's target is ever reported; reading facts costs time inside the page's dispatch.
      target: !delivered && target instanceof Element ? facts(target) : null,
    });
    if (!delivered) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
  };
  for (const type of ['pointerdown', 'pointerup', 'mousedown', 'mouseup', 'click', 'auxclick', 'dblclick']) {
    window.addEventListener(type, onEvent, true);
  }

  const observer = new MutationObserver((records) => {
    state.mutations += records.length;
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });

  w.__trueclick = {
    facts,
    arm: (el: Element, x: number, y: number, ms: number) => {
      const now = performance.now();
      state.armed = { el, x, y, armedAt: now, expires: now + ms, events: [] };
      return now;
    },
    disarm: () => {
      const a = state.armed;
      state.armed = null;
      return a ? { armedAt: a.armedAt, events: a.events } : null;
    },
    mutations: () => state.mutations,
    metrics: () => [innerWidth, innerHeight, devicePixelRatio, state.mutations],
  };
}

export const GUARD_WORLD = 'trueclick';
// The same lists the snapshot side uses, so "row" and "control" mean one thing on both sides.
const LISTS = {
  contextTags: CONTEXT_SELECTOR_TAGS,
  contextRoles: CONTEXT_ROLES,
  actionableSelector: [
    'a[href]',
    ...ACTIONABLE_TAGS.filter((t) => t !== 'A').map((t) => t.toLowerCase()),
    ...ACTIONABLE_ROLES.map((r) => `[role="${r}"]`),
    '[onclick]',
  ].join(','),
};
export const GUARD_SOURCE = `(${guardMain.toString()})(${JSON.stringify(LISTS)});`;

/** Called on the checked element (as `this`) in the isolated world: read its facts and arm the guard. */
export const INSPECT_AND_ARM = `function (x, y, ms, selector) {
  const g = window.__trueclick;
  const f = g.facts(this);
  if (selector) { try { f.matchesSelector = this.matches(selector) || !!this.closest(selector); } catch (e) { f.selectorError = String(e && e.message || e); } }
  const top = document.elementFromPoint(x, y);
  f.underPoint = !!top && (top === this || this.contains(top));
  if (!f.underPoint && top) f.onTop = g.facts(top);
  f.mutations = g.mutations();
  f.armedAt = g.arm(this, x, y, ms);
  return f;
}`;
