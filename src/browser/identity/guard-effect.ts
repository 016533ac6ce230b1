import type { IdentityKit } from './identity.js';

/** What a press did to its page, as the guard recorded it from the press on. */
export interface PressEffect {
  /** The pressed control, by role and name. */
  control: string;
  /** Its own state that changed, now: `checked=true`, `aria-expanded=true`, `open=true`, `value=…`. */
  changed: string[];
  /** Elements that came, or changed how they show, outside the control (the outermost of each). */
  appeared: Array<{ role: string; name: string }>;
  /** Elements an attribute change hid (a menu closed by the click). */
  hidden: Array<{ role: string; name: string }>;
  /** Text of elements removed. */
  gone: string[];
  /** Text changes inside the control's record (live content not counted). */
  text: number;
  /** Texts that changed outside the control's record, as they read now (a count, a total, a status line). */
  elsewhere?: string[];
  /** A native single select was pressed: the browser draws its option list, outside the DOM. */
  optionList?: boolean;
}

/**
 * What a press did to the page, recorded from the press on and read once after it (the effect named in the
 * answer): the pressed control's own state, elements that came or changed how they show, text of its record,
 * elements removed. Runs in the page inside the guard (guard-script.ts embeds its source beside the
 * identity kit's), so it uses no imports and no outer variables: the kit comes in, and whether an element's
 * text ticked lately (the guard's tick log), which is the page living, not the press's doing.
 */
export function pressEffects(
  kit: () => IdentityKit<Element>,
  tickedLately: (el: Element) => boolean,
): {
  /** From the press on; `rec`: the record the guard found for el when it armed (found again when undefined). */
  start(el: Element, rec?: Element | null): void;
  note(r: MutationRecord): void;
  recording(): boolean;
  read(): PressEffect | null;
} {
  const fx: {
    el: Element | null;
    rec: Element | null;
    state: string[];
    shown: Set<Element>;
    /** Elements whose class, style or hidden state changed: they may have been shown or hidden. */
    toggled: Set<Element>;
    gone: string[];
    text: number;
    /** Elements outside the record whose own text changed. */
    elsewhere: Set<Element>;
    /** Popovers open at the press: showing one changes no attribute, so the mutations never tell. */
    popovers: Set<Element>;
  } = {
    el: null,
    rec: null,
    state: [],
    shown: new Set(),
    toggled: new Set(),
    gone: [],
    text: 0,
    elsewhere: new Set(),
    popovers: new Set(),
  };
  const openPopovers = (el: Element): Element[] => {
    const roots = new Set<Document | ShadowRoot>([document]);
    const own = el.getRootNode();
    if (own instanceof ShadowRoot) roots.add(own);
    try {
      return [...roots].flatMap((r) => Array.from(r.querySelectorAll(':popover-open')));
    } catch {
      return []; // a browser without the Popover API
    }
  };
  const SHOWN_BY = ['class', 'style', 'hidden', 'open', 'aria-hidden'];
  const NOT_TYPED = [
    'checkbox',
    'radio',
    'button',
    'submit',
    'reset',
    'image',
    'file',
    'color',
    'range',
    'hidden',
  ];
  const typesInto = (c: Element): boolean => {
    const field = (e: Element | null | undefined) =>
      (e instanceof HTMLTextAreaElement || (e instanceof HTMLInputElement && !NOT_TYPED.includes(e.type))) &&
      !e.readOnly;
    if (field(c) || (c instanceof HTMLElement && c.isContentEditable)) return true;
    // A web component's text field (sl-input) keeps its input in its shadow tree.
    return c.localName.includes('-') && field(c.shadowRoot?.querySelector('input, textarea'));
  };
  // One step up the composed tree: a shadow root's parent is its host.
  const upOf = (n: Node): Node | null => n.parentNode ?? (n instanceof ShadowRoot ? n.host : null);
  // A label pressed acts on its control: the state to read is the control's.
  const controlOf = (el: Element): Element => (el instanceof HTMLLabelElement ? el.control : null) ?? el;
  // The focused element, down through shadow roots; not :focus, which a window in the background never
  // matches (the user's own browser behind their terminal).
  const hasFocus = (c: Element): boolean => {
    const editable = c instanceof HTMLElement && c.isContentEditable;
    for (let a = document.activeElement; a; a = a.shadowRoot?.activeElement ?? null)
      if (a === c || (editable && a.contains(c))) return true;
    return false;
  };
  const stateOf = (el: Element): string[] => {
    const c = controlOf(el);
    const i = c as HTMLInputElement;
    const out: string[] = [];
    // A web component's checkbox or switch (Shoelace's sl-checkbox) keeps its state in the input of its shadow
    // tree, around the part pressed (its own properties are the page's, unseen from trueclick's world).
    // The nearest component only: an app's own shell may hold checkboxes of its own.
    let box: HTMLInputElement | null = null;
    for (let x: Node | null = c, n = 0; x && n < 12; n++) {
      if (x instanceof Element && x.localName.includes('-')) {
        box =
          x.shadowRoot?.querySelector<HTMLInputElement>('input[type=checkbox], input[type=radio]') ?? null;
        break;
      }
      x = upOf(x);
    }
    // A list box's selection is in properties, not attributes: no mutation says an option was chosen.
    if (c instanceof HTMLOptionElement) out.push(`selected=${c.selected}`);
    else if (c instanceof HTMLSelectElement && c.multiple)
      out.push(
        `chosen=${Array.from(c.selectedOptions, (o) => o.label)
          .join(', ')
          .slice(0, 80)}`,
      );
    else if (c instanceof HTMLInputElement && (i.type === 'checkbox' || i.type === 'radio'))
      out.push(`checked=${i.checked}`);
    else if (box) out.push(`checked=${box.checked}`);
    else if ('value' in c && typeof i.value === 'string') out.push(`value=${i.value.slice(0, 80)}`);
    // A field pressed to type into changes nothing but where the keys go: said, or the press reads as nothing.
    if (typesInto(c)) out.push(`focused=${hasFocus(c)}`);
    for (const at of ['aria-expanded', 'aria-pressed', 'aria-checked', 'aria-selected']) {
      const v = c.closest(`[${at}]`)?.getAttribute(at);
      if (v) out.push(`${at}=${v}`);
    }
    const details = c.closest('details');
    if (details) out.push(`open=${details.open}`);
    return out;
  };
  const startEffect = (el: Element, rec?: Element | null) => {
    fx.el = el;
    // Found again, it costs ~0.5 ms inside the press's dispatch on a page of a few hundred elements.
    fx.rec = rec !== undefined ? rec : (kit().record(el)?.node ?? null);
    fx.state = stateOf(el);
    fx.shown.clear();
    fx.toggled.clear();
    fx.gone = [];
    fx.text = 0;
    fx.elsewhere.clear();
    fx.popovers = new Set(openPopovers(el));
  };
  const noteEffect = (r: MutationRecord) => {
    const el = fx.el;
    if (!el || fx.shown.size > 50) return;
    const t = r.target instanceof Element ? r.target : r.target.parentElement;
    // An attribute that shows or hides: shown when it gained (a class added, hidden removed, open set),
    // else it may have hidden the element; which one is told by whether it shows after.
    if (r.type === 'attributes' && t && SHOWN_BY.includes(r.attributeName ?? '')) {
      const name = r.attributeName ?? '';
      const now = t.getAttribute(name);
      const was = r.oldValue;
      const gained =
        name === 'class'
          ? (now ?? '').split(/\s+/).some((c) => c && !` ${was ?? ''} `.includes(` ${c} `))
          : name === 'hidden' || name === 'aria-hidden'
            ? was !== null && (now === null || now === 'false')
            : now !== null;
      (gained ? fx.shown : fx.toggled).add(t);
    }
    if (r.type === 'childList') {
      for (const n of Array.from(r.addedNodes)) if (n instanceof Element) fx.shown.add(n);
      for (const n of Array.from(r.removedNodes))
        if (n instanceof Element && fx.gone.length < 3) fx.gone.push(kit().text(n).slice(0, 60));
    }
    // Text that changed before the press too is the page living (a duration ticking without saying so), not
    // the press's doing.
    if (
      (r.type === 'characterData' || r.type === 'childList') &&
      t &&
      fx.rec?.contains(t) &&
      !kit().inLive(t) &&
      !tickedLately(t)
    )
      fx.text++;
    // Text that changed elsewhere, in place (a counter, a total, a status line): only text nodes came or
    // went, so no element appeared to say it.
    const textOnly = (l: NodeList) => Array.from(l).every((n) => n.nodeType === Node.TEXT_NODE);
    if (
      (r.type === 'characterData' ||
        (r.type === 'childList' && textOnly(r.addedNodes) && textOnly(r.removedNodes))) &&
      t &&
      fx.elsewhere.size < 3 &&
      !fx.rec?.contains(t) &&
      !kit().inLive(t) &&
      !tickedLately(t)
    )
      fx.elsewhere.add(t);
  };
  // Whether a holds b in the flat tree: a part of a web component's shadow tree is the component's own.
  const holds = (a: Node, b: Node): boolean => {
    for (let n: Node | null = b; n; n = upOf(n)) if (n === a) return true;
    return false;
  };
  // The opacity an element is headed for: a fade running now (a modal or toast closing) ends where it goes.
  const opacityTarget = (el: Element, s: CSSStyleDeclaration): number => {
    try {
      for (const an of el.getAnimations()) {
        const frames = (an.effect as KeyframeEffect | null)?.getKeyframes?.() ?? [];
        const last = frames[frames.length - 1];
        if (last && 'opacity' in last) return Number(last.opacity);
      }
    } catch {
      // a browser without the Web Animations API
    }
    return Number(s.opacity);
  };
  // Faded out with what holds it in the flat tree (a popup's panel, slotted into the part that animates).
  const fadingWith = (el: Element): boolean => {
    let x: Node | null = el.assignedSlot ?? el.parentNode;
    for (let i = 0; x && i < 8; i++) {
      if (x instanceof ShadowRoot) x = x.host;
      if (!(x instanceof Element)) return false;
      if (opacityTarget(x, getComputedStyle(x)) === 0) return true;
      x = x.assignedSlot ?? x.parentNode;
    }
    return false;
  };
  const visible = (el: Element, depth = 0): boolean => {
    const b = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || opacityTarget(el, s) === 0) return false;
    if (fadingWith(el)) return false;
    if (s.display !== 'contents') return b.width > 0 && b.height > 0;
    // No box of its own (a web component's popup wrapper): it shows what its children show.
    const kids = [...Array.from(el.children), ...Array.from(el.shadowRoot?.children ?? [])];
    return depth < 4 && kids.some((k) => visible(k, depth + 1));
  };
  // What a list or a dialog is even where the identity kit calls it generic (it names controls by role).
  const IMPLICIT: Record<string, string> = {
    UL: 'list',
    OL: 'list',
    MENU: 'list',
    DIALOG: 'dialog',
    TABLE: 'table',
    OPTION: 'option',
  };
  const roleOf = (n: Element) => {
    const r = kit().role(n);
    return r === 'generic' ? (IMPLICIT[n.nodeName] ?? r) : r;
  };
  const nameOf = (el: Element) => {
    const labels = (el as HTMLInputElement).labels;
    return kit().label(el) || (labels?.[0] ? kit().text(labels[0]) : '') || kit().text(el);
  };
  // A dialog or menu names itself by the heading it points at (aria-labelledby), not by all it holds.
  const titleOf = (n: Element): string => {
    const ids = (n.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
    const root = n.getRootNode() as Document | ShadowRoot;
    const by = ids.map((id) => root.getElementById?.(id)?.textContent?.trim() ?? '').filter(Boolean);
    return by.length ? by.join(' ').replace(/\s+/g, ' ') : kit().label(n) || kit().text(n);
  };
  const elsewhereOf = (el: Element): { elsewhere?: string[] } => {
    const now = [...fx.elsewhere]
      .filter((n) => n.isConnected && !holds(el, n) && visible(n))
      .map((n) => kit().text(n).slice(0, 60))
      .filter(Boolean);
    return now.length ? { elsewhere: now.slice(0, 2) } : {};
  };
  /** The press's effect so far; the recording ends. */
  const read = (): PressEffect | null => {
    const el = fx.el;
    fx.el = null;
    if (!el) return null;
    const now = el.isConnected ? stateOf(el) : [];
    const open = openPopovers(el);
    for (const p of open) if (!fx.popovers.has(p)) fx.shown.add(p);
    for (const p of fx.popovers) if (!open.includes(p)) fx.toggled.add(p);
    // By name, not place: a state that came with the press (a field made editable) shifts the others.
    const was = new Map(fx.state.map((s) => [s.split('=')[0], s]));
    const changed = now.filter((s) => was.get(s.split('=')[0]) !== s);
    // A kit reads one moment of the tree (guard-script.ts): this one is the page after the press.
    const k = kit();
    const shown = [...fx.shown].filter(
      (n) => n.isConnected && n !== el && !holds(n, el) && !holds(el, n) && visible(n),
    );
    // The outermost of what came (a menu, not each of its items); what an attribute hid, outermost too. What
    // hid may hold the pressed control, or be it: a dialog or a toast closed by its own button or backdrop.
    const outer = shown.filter((n) => !shown.some((m) => m !== n && holds(m, n)));
    const page = (n: Element) => n === document.documentElement || n === document.body;
    const hid = [...new Set([...fx.toggled, ...fx.shown])].filter(
      (n) => n.isConnected && !page(n) && !(n !== el && holds(el, n)) && !visible(n),
    );
    const hidOuter = hid.filter((n) => !hid.some((m) => m !== n && holds(m, n)));
    const select = controlOf(el);
    return {
      control: `${roleOf(el)} "${nameOf(el).slice(0, 60)}"`,
      changed,
      appeared: outer.slice(0, 3).map((n) => ({ role: roleOf(n), name: titleOf(n).slice(0, 60) })),
      hidden: hidOuter.slice(0, 3).map((n) => ({ role: roleOf(n), name: titleOf(n).slice(0, 60) })),
      gone: el.isConnected ? fx.gone : [k.text(el).slice(0, 60), ...fx.gone].slice(0, 3),
      text: fx.text,
      ...elsewhereOf(el),
      ...(select instanceof HTMLSelectElement && !select.multiple && select.size <= 1 && !select.disabled
        ? { optionList: true }
        : {}),
    };
  };
  return { start: startEffect, note: noteEffect, recording: () => fx.el !== null, read };
}
