import type { Arming, Signature } from './guard-signature.js';
import type { IdentityKit } from './identity.js';

/** One trusted event the armed guard saw, as the caller reads it back. */
export interface JudgedEvent {
  type: string;
  t: number;
  delivered: boolean;
  /** The facts of what a stopped event would have reached. */
  target: unknown;
  x: number;
  y: number;
  /** What changed in the element or its record, when that is why it was stopped. */
  changed?: string;
  /** Reached the element the page drew anew in place of the checked one since the last event. */
  redrawn?: boolean;
}

/** The guard armed for one checked element and point. */
export type Armed = Arming & {
  el: Element;
  /** What changed in el or its record since the check, if anything: the event is then stopped. */
  changed: string | null;
  /** A mutation since the last judgement: the next event judges el and its record against `base`. */
  dirty: boolean;
  x: number;
  y: number;
  token: string;
  /** A drag: only the press is judged; the moves, the release and the drop go wherever the drag goes. */
  pressOnly: boolean;
  armedAt: number;
  expires: number;
  events: JudgedEvent[];
};

/**
 * Judges each trusted pointer, mouse and click event while the guard is armed: an event whose target is
 * not the checked element, or that comes after the element or its record changed, is stopped before the
 * page's handlers see it. Each judged event is sent out at once through the CDP binding, so a document the
 * click tears down loses nothing. Runs in the page inside the guard (guard-script.ts embeds its source):
 * no imports but types, no outer variables.
 */
export function eventJudge(g: {
  armed: () => Armed | null;
  expire: () => void;
  kit: () => IdentityKit<Element>;
  signature: (el: Element, rec: Element | null) => Signature;
  judgeSince: (a: Arming, now: Signature, pressed: boolean) => string | null;
  /** The press began: its effect is recorded from here. */
  pressed: (a: Armed) => void;
  /** A trusted input was handled (guard-wait.ts). */
  seen: () => void;
  facts: (el: Element) => Record<string, unknown>;
  binding: string;
}): (ev: Event) => void {
  const report = (a: Armed, e: JudgedEvent) => {
    const send = (window as unknown as Record<string, unknown>)[g.binding];
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

  // The page drew the checked element anew between the check and the press (a grid's cell renderer on a
  // price tick): the event reaches its successor, the same in every part and in the same record. The guard
  // follows it; anything else the event reaches is still stopped.
  const redrawn = (a: Armed, target: EventTarget | undefined): boolean => {
    if (a.el.isConnected || !(target instanceof Element)) return false;
    try {
      const el = g.kit().canonical(target);
      const rec = g.kit().record(el)?.node ?? null;
      const sig = g.signature(el, rec);
      if (sig.own !== a.base.own || g.judgeSince(a, sig, false) !== null) return false;
      a.el = el;
      a.rec = rec;
      return true;
    } catch {
      return false;
    }
  };

  return (ev: Event) => {
    const a = g.armed();
    if (!a || !ev.isTrusted) return;
    const me = ev as MouseEvent;
    if (performance.now() > a.expires) {
      g.expire();
      return;
    }
    if (ev.type === 'pointerdown') g.pressed(a);
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
    const inPlace =
      (background
        ? target === a.el || target === document.body || target === document.documentElement
        : path.includes(a.el)) || labelActivation(a, ev, path);
    const anew = !inPlace && redrawn(a, target);
    const reached = inPlace || anew;
    // Same node but new data (a list keyed by index re-rendered it): another record, so it is stopped too.
    // Once an event was stopped for it, the change stands: a release must not follow a stopped press.
    if (a.dirty && a.changed === null) {
      a.dirty = false;
      try {
        const pressed = a.events.some((x) => x.delivered && x.type !== 'mousemove');
        a.changed = g.judgeSince(a, g.signature(a.el, a.rec), pressed);
      } catch {
        a.changed = 'its content';
      }
    }
    const delivered = reached && a.changed === null;
    if (!delivered) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
    }
    const e: JudgedEvent = {
      type: ev.type,
      t: performance.now(),
      delivered,
      x: me.clientX,
      y: me.clientY,
      target: null,
    };
    if (reached && a.changed !== null) e.changed = a.changed;
    if (anew) e.redrawn = true;
    a.events.push(e);
    if (ev.type === 'mouseup') g.seen();
    // Only a stopped event's target is read; reading facts costs time inside the page's dispatch.
    if (!delivered && target instanceof Element) {
      try {
        e.target = g.facts(g.kit().canonical(target));
      } catch {
        // the event is stopped all the same
      }
    }
    report(a, e);
  };
}
