/**
 * What an element *is*, read the same way from two trees: the DOM snapshot taken with the screenshot
 * (Node side, over DOMSnapshot arrays) and the live page (trueclick's isolated world, over Elements).
 *
 * `identityKit` is one implementation for both: it only touches the tree through a `TreeView`, uses no
 * imports and no outer variables but the record finder (record-finder.ts), and guard-script.ts embeds both
 * sources in the page. So "the record around this button", "the control this span belongs to", "the element a point in a
 * shadow root stands for" and "its text" cannot mean one thing at capture and another at click time.
 */

import { type RecordFinder, recordFinder } from './record-finder.js';
import type { IdentityLists, TreeView } from './tree-view.js';

export type { IdentityLists, RecordOf, TreeView } from './tree-view.js';

/**
 * What both sides know of an element the same way; each side adds what only it can read (input values,
 * labels, boxes). `actionable` keeps the control's node so a side can measure it.
 */
export interface Fingerprint<N> {
  tag: string;
  attrs: Record<string, string>;
  text: string;
  role: string;
  background?: true;
  contextText?: string;
  recordTag?: string;
  overlay?: { role: string; label: string };
  actionable?: { node: N; tag: string; attrs: Record<string, string>; text: string; role: string };
  /** What tells the record apart, part by part (recordParts): compared instead of its text alone. */
  recordParts?: string[];
  /** The element sits in content that updates by itself (a timer, a progress bar, an aria-live region). */
  live?: true;
}

export interface IdentityKit<N> extends RecordFinder<N> {
  canonical(n: N): N;
  composedParent(n: N): N | null;
  isActionable(n: N): boolean;
  /** The element itself when it is a control, else the nearest control around it (composed tree). */
  control(n: N): N | null;
  role(n: N): string;
  /** A short label: what tells one control from another of the same role. */
  label(n: N): string;
  /** Text of the element and its open shadow trees, whitespace collapsed, capped. */
  text(n: N, cap?: number): string;
  /** The dialog, alert, toast or tooltip the element sits in, if any: what to call a cover. */
  overlay(n: N): N | null;
  isBackground(n: N): boolean;
  isIdentityAttr(name: string): boolean;
  fingerprint(n: N): Fingerprint<N>;
  /** Whether the element, or an ancestor below its record, declares its content live. */
  inLive(n: N): boolean;
  /**
   * Why a press on n would do nothing, as Playwright's "enabled" and the HTML inert rule decide it: a disabled
   * form control (its own `disabled`, or a disabled fieldset outside its first legend), a component host
   * marked disabled, an `aria-disabled="true"` ancestor, an `inert` subtree. Null when nothing stops it.
   */
  blocked(n: N): Blocked<N> | null;
}

export interface Blocked<N> {
  reason: 'disabled' | 'fieldset' | 'aria-disabled' | 'inert';
  /** The element that carries it (the control, the fieldset, the aria-disabled or inert ancestor). */
  by: N;
}

/**
 * @param oneMoment the tree does not change while this kit is used (one synchronous task in the page): each
 * element's parent, children, tag and attributes are read once. A fingerprint reads them many times: on a
 * live row, about a third of a click's time in the page. The snapshot's documents keep their own tables.
 */
export function identityKit<N>(view: TreeView<N>, lists: IdentityLists, oneMoment = false): IdentityKit<N> {
  const once = <T>(read: (n: N) => T) => {
    const memo = new Map<N, T>();
    return (n: N): T => {
      if (memo.has(n)) return memo.get(n) as T;
      const r = read(n);
      memo.set(n, r);
      return r;
    };
  };
  const v: TreeView<N> = !oneMoment
    ? view
    : {
        parent: once((n) => view.parent(n)),
        inShadow: (n) => view.inShadow(n),
        isHost: (n) => view.isHost(n),
        kids: once((n) => view.kids(n)),
        tag: once((n) => view.tag(n)),
        attrs: once((n) => view.attrs(n)),
        formState: (n) => view.formState(n),
        closedShadow: (n) => view.closedShadow(n),
      };
  const SKIP_TEXT = ['STYLE', 'SCRIPT', 'TEMPLATE', 'NOSCRIPT'];
  const NATIVE_CONTROLS = ['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA'];
  const textCache = new Map<N, string>();

  const norm = (s: string, cap: number) => {
    const t = s.replace(/\s+/g, ' ').trim();
    return t.length > cap ? `${t.slice(0, cap - 1)}…` : t;
  };

  const childCache = new Map<N, N[]>();
  const children = (n: N): N[] => {
    let c = childCache.get(n);
    if (!c) {
      c = v.kids(n).filter((k): k is N => typeof k !== 'string');
      childCache.set(n, c);
    }
    return c;
  };

  // A point inside an open shadow tree stands for the innermost element there, as the event's composed path
  // starts: an app that is one custom element (Lit, Stencil, Ionic) is many records and controls, not one
  // host. Two kinds of element stand for an outer one, as both hit-tests (snapshot and live) agree only
  // then: a component that wraps one native control (sl-button, sl-checkbox) is that control, whatever
  // part of it is hit, and the shapes inside an <svg> are the svg. Closed and user-agent shadow trees are
  // what the page's scripts cannot reach either: a point there stands for their host.
  const canonical = (n: N): N => {
    let x: N | null = n;
    while (x !== null && v.closedShadow(x)) x = v.parent(x);
    if (x === null) return n;
    let out: N = x;
    for (let y: N | null = x; y !== null; y = v.parent(y)) {
      if (v.tag(y) === 'SVG') out = y;
      if (!v.inShadow(y)) {
        if (y !== x && v.isHost(y) && v.tag(y).includes('-') && shadowHasNativeControl(y)) return y;
        break;
      }
    }
    return out;
  };
  const composedParent = (n: N): N | null => v.parent(n);

  const rawText = (n: N, budget: { left: number }): string => {
    let out = '';
    const walk = (list: Array<N | string> | null) => {
      for (const k of list ?? []) {
        if (budget.left <= 0) return;
        if (typeof k === 'string') {
          out += k;
          budget.left -= k.length;
        } else if (!SKIP_TEXT.includes(v.tag(k))) {
          // Element boundaries read as spaces: "TCK-7741 Export to CSV Archive", not "TCK-7741ExportArchive".
          out += ' ';
          walk(v.kids(k));
          out += ' ';
        }
      }
    };
    walk(v.kids(n));
    return out;
  };

  const text = (n: N, cap = 160): string => {
    const hit = textCache.get(n);
    const full = hit ?? norm(rawText(n, { left: 2000 }), 400);
    if (hit === undefined) textCache.set(n, full);
    return full.length > cap ? `${full.slice(0, cap - 1)}…` : full;
  };

  // A component that wraps one native control is a control; one whose shadow tree holds many (an app, a
  // list) is a container of controls.
  const shadowHasNativeControl = (n: N): boolean => {
    let seen = 0;
    let controls = 0;
    const walk = (list: Array<N | string> | null, depth: number) => {
      for (const k of list ?? []) {
        if (typeof k === 'string' || ++seen > 60 || depth > 5 || controls > 1) continue;
        const t = v.tag(k);
        if (NATIVE_CONTROLS.includes(t) && v.inShadow(k) && (t !== 'A' || 'href' in v.attrs(k))) controls++;
        walk(v.kids(k), depth + 1);
      }
    };
    if (!v.isHost(n)) return false;
    walk(v.kids(n), 0);
    return controls === 1;
  };

  const isActionable = (n: N): boolean => {
    const t = v.tag(n);
    const a = v.attrs(n);
    if (t === 'A') return 'href' in a;
    if (t === 'INPUT' && (a.type ?? '').toLowerCase() === 'hidden') return false;
    if (lists.actionableTags.includes(t) || lists.actionableRoles.includes(a.role ?? '') || 'onclick' in a)
      return true;
    // A web component that wraps a native control in its open shadow root (sl-button, sl-checkbox).
    return t.includes('-') && shadowHasNativeControl(n);
  };

  const control = (n: N): N | null => {
    for (let x: N | null = n; x !== null; x = composedParent(x)) {
      const t = v.tag(x);
      if (t === 'BODY' || t === 'HTML') return null;
      if (isActionable(x)) return x;
    }
    return null;
  };

  const implicitRole = (t: string, a: Record<string, string>): string => {
    const type = (a.type ?? '').toLowerCase();
    if (t === 'A') return 'href' in a ? 'link' : 'generic';
    if (t === 'BUTTON' || t === 'SUMMARY') return 'button';
    if (t === 'INPUT') {
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'checkbox' || type === 'radio') return type;
      if (type === 'range') return 'slider';
      if (type === 'search') return 'searchbox';
      return 'textbox';
    }
    const fixed: Record<string, string> = {
      TEXTAREA: 'textbox',
      SELECT: 'combobox',
      IMG: 'img',
      CANVAS: 'img',
      TR: 'row',
      TD: 'cell',
      TH: 'columnheader',
      LI: 'listitem',
      LABEL: 'label',
      H1: 'heading',
      H2: 'heading',
      H3: 'heading',
      H4: 'heading',
      H5: 'heading',
      H6: 'heading',
    };
    return fixed[t] ?? 'generic';
  };

  const role = (n: N): string => {
    const a = v.attrs(n);
    const own = a.role?.trim().split(/\s+/)[0];
    if (own) return own;
    const t = v.tag(n);
    if (t.includes('-')) {
      // A component's role is that of the native control it wraps (sl-button → button, or link with href).
      let found = 'generic';
      let seen = 0;
      const walk = (list: Array<N | string> | null): boolean => {
        for (const k of list ?? []) {
          if (typeof k === 'string' || ++seen > 60) continue;
          const r = implicitRole(v.tag(k), v.attrs(k));
          if (r !== 'generic' && NATIVE_CONTROLS.includes(v.tag(k)) && v.inShadow(k)) {
            found = r;
            return true;
          }
          if (walk(v.kids(k))) return true;
        }
        return false;
      };
      if (v.isHost(n)) walk(v.kids(n));
      return found;
    }
    return implicitRole(t, a);
  };

  const label = (n: N): string => {
    const a = v.attrs(n);
    // title after the text: tooltip libraries take it away when the mouse arrives.
    return norm(a['aria-label'] || a.alt || text(n, 80) || a.placeholder || a.value || a.title || '', 80);
  };

  const OVERLAY_ROLES = ['dialog', 'alertdialog', 'alert', 'status', 'tooltip'];
  const overlay = (n: N): N | null => {
    for (let x: N | null = n; x !== null; x = v.parent(x)) {
      const a = v.attrs(x);
      if (v.tag(x) === 'DIALOG' || a['aria-modal'] === 'true' || OVERLAY_ROLES.includes(a.role ?? ''))
        return x;
    }
    return null;
  };

  const isBackground = (n: N): boolean => {
    const t = v.tag(n);
    return (t === 'HTML' || t === 'BODY') && !v.inShadow(n);
  };

  const dataId = new RegExp(lists.dataId);
  const isIdentityAttr = (name: string) => lists.identityAttrs.includes(name) || dataId.test(name);
  const identityAttrs = (n: N) => {
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(v.attrs(n))) if (isIdentityAttr(k)) out[k] = val;
    return out;
  };

  // Content that updates by itself, as ARIA and HTML declare it: its text is not what names a record.
  const LIVE_ROLES = ['timer', 'progressbar', 'status', 'marquee', 'log'];
  const LIVE_TAGS = ['TIME', 'PROGRESS', 'METER', 'MARQUEE'];
  const declaresLive = (n: N): boolean => {
    const a = v.attrs(n);
    if (LIVE_TAGS.includes(v.tag(n)) || LIVE_ROLES.includes(a.role ?? '')) return true;
    const live = a['aria-live'];
    return live !== undefined && live !== 'off';
  };
  const liveBelow = (n: N, stop: N | null): boolean => {
    for (let x: N | null = n; x !== null && x !== stop; x = v.parent(x)) {
      if (declaresLive(x)) return true;
      if (isBackground(x)) return false;
    }
    return false;
  };
  const { record, recordParts, partOwners, distinctParts, uniqueParts } = recordFinder(v, lists, {
    children,
    control,
    role,
    label,
    text,
    norm,
    declaresLive,
    skipText: SKIP_TEXT,
  });
  const inLive = (n: N): boolean => liveBelow(n, record(n)?.node ?? null);

  const fingerprint = (n: N): Fingerprint<N> => {
    const f: Fingerprint<N> = { tag: v.tag(n), attrs: identityAttrs(n), text: text(n), role: role(n) };
    if (isBackground(n)) f.background = true;
    const rec = record(n);
    if (rec) {
      f.contextText = rec.text;
      f.recordTag = rec.tag;
      f.recordParts = recordParts(rec.node);
    }
    if (liveBelow(n, rec?.node ?? null)) f.live = true;
    const ov = overlay(n);
    if (ov !== null) f.overlay = { role: v.attrs(ov).role || v.tag(ov).toLowerCase(), label: label(ov) };
    const c = control(n);
    if (c !== null && c !== n)
      f.actionable = { node: c, tag: v.tag(c), attrs: identityAttrs(c), text: text(c), role: role(c) };
    return f;
  };

  const FORM_CONTROLS = ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP'];
  const blocked = (n: N): Blocked<N> | null => {
    let control: N | null = null;
    let child: N | null = null;
    for (let x: N | null = n; x; child = x, x = v.parent(x)) {
      const tag = v.tag(x);
      const a = v.attrs(x);
      if (FORM_CONTROLS.includes(tag) && !control) {
        control = x;
        if ('disabled' in a) return { reason: 'disabled', by: x };
      } else if (tag.includes('-') && 'disabled' in a) return { reason: 'disabled', by: x };
      // A disabled fieldset disables its controls, except those in its first legend.
      if (tag === 'FIELDSET' && 'disabled' in a && control) {
        const legend = children(x).find((k) => v.tag(k) === 'LEGEND');
        if (!legend || child !== legend) return { reason: 'fieldset', by: x };
      }
      // An option of a disabled select or optgroup is disabled with it.
      if ((tag === 'SELECT' || tag === 'OPTGROUP') && control && control !== x && 'disabled' in a)
        return { reason: 'disabled', by: x };
      if (a['aria-disabled'] === 'true') return { reason: 'aria-disabled', by: x };
      if ('inert' in a) return { reason: 'inert', by: x };
    }
    return null;
  };

  return {
    blocked,
    canonical,
    composedParent,
    isActionable,
    control,
    role,
    label,
    text,
    record,
    overlay,
    isBackground,
    isIdentityAttr,
    fingerprint,
    recordParts,
    partOwners,
    inLive,
    distinctParts,
    uniqueParts,
  };
}
