import type { IdentityLists } from './identity.js';

/**
 * What we know about one element, gathered the same way from a DOM snapshot (capture time) and from the live
 * page (now), through the one identity kit (identity.ts), so that the fingerprints compare like with like.
 */
export interface ElementFacts {
  backendNodeId: number;
  /** The frame (CDP frame id) whose document holds the element; absent for the page's own document. */
  frame?: string;
  tag: string;
  /** The attributes that carry identity (IDENTITY_ATTRS), not classes or styles. */
  attrs: Record<string, string>;
  /** Text of the element and its open shadow trees, whitespace collapsed, capped. */
  text: string;
  role: string;
  value?: string;
  checked?: boolean;
  labelText?: string;
  /** The page background (<html> or <body> itself): one element on both sides, whatever its text. */
  background?: true;
  /** The text of the element's record (the row, card or list item around it): what tells one "Delete" from another. */
  contextText?: string;
  /** The record's tag, for naming it ("row", "list item", or the div it is). */
  recordTag?: string;
  /** The dialog, alert, toast or tooltip around the element: how a cover is named. */
  overlay?: { role: string; label: string };
  /** Bounding box in CSS viewport px at the time the facts were read. */
  rect?: { x: number; y: number; width: number; height: number };
  /**
   * The control this element belongs to, when the element itself is not one (the label span inside a
   * button): what the agent meant, and what a hit reports.
   */
  actionable?: {
    tag: string;
    attrs: Record<string, string>;
    text: string;
    role: string;
    rect?: { x: number; y: number; width: number; height: number };
  };
}

/** The element as reported to the agent (SPEC S4 "a hit"). */
export interface Hit {
  tag: string;
  text: string;
  role: string;
  name: string;
  nodeId: number;
  id?: string;
  href?: string;
  context?: string;
  /** The dialog / alert / toast the element belongs to. */
  overlay?: string;
  frame?: string;
  checked?: boolean;
  rect?: { x: number; y: number; width: number; height: number };
}

export const TEXT_CAP = 160;
export const ACTIONABLE_TAGS = ['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY', 'LABEL'];
export const ACTIONABLE_ROLES = [
  'button',
  'link',
  'checkbox',
  'radio',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'switch',
  'textbox',
  'combobox',
  'slider',
  'treeitem',
];

/**
 * Attributes that say which thing an element is, as opposed to how it looks or what state it is in:
 * aria-expanded or aria-selected change when the mouse hovers a menu, a class when a row is hovered.
 */
export const IDENTITY_ATTRS = [
  'id',
  'href',
  'name',
  'value',
  'type',
  'role',
  'for',
  'alt',
  'title',
  'placeholder',
  'src',
  'action',
  'aria-label',
  'aria-labelledby',
  'aria-controls',
  'aria-roledescription',
  'aria-rowindex',
  'aria-colindex',
  'onclick',
];
/** Kept for naming a hit, not compared: tooltip libraries move `title` around when the mouse arrives. */
const NAMING_ONLY = ['title'];
/** data-* attributes that name a record: data-id, data-row-id, data-key, data-ticket-id, data-testid… */
export const DATA_ID = /^data-([a-z0-9-]*-)?(id|key|testid|test-id|uid|pk|slug|sku)$/;

export const IDENTITY_LISTS: IdentityLists = {
  actionableTags: ACTIONABLE_TAGS,
  actionableRoles: ACTIONABLE_ROLES,
  identityAttrs: IDENTITY_ATTRS,
  dataId: DATA_ID.source,
};

export function normalizeText(s: string | undefined | null, cap = TEXT_CAP): string {
  if (!s) return '';
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > cap ? `${t.slice(0, cap - 1)}…` : t;
}

export function toHit(f: ElementFacts): Hit {
  // Report the control (the button), not the span inside it; nodeId stays the node under the point.
  const control = f.actionable;
  const own = control ?? f;
  const a = own.attrs;
  const ownLabel = control ? '' : f.labelText || '';
  const ownValue = control ? '' : f.value || '';
  const name = normalizeText(
    a['aria-label'] || a.alt || ownLabel || a.title || a.placeholder || own.text || ownValue || '',
    80,
  );
  const hit: Hit = {
    tag: own.tag.toLowerCase(),
    text: normalizeText(own.text, 80),
    role: f.background ? 'background' : own.role,
    name: f.background ? '' : name,
    nodeId: f.backendNodeId,
  };
  if (f.background) hit.text = '';
  if (a.id) hit.id = a.id;
  if (a.href !== undefined) hit.href = a.href;
  if (f.contextText) hit.context = normalizeText(f.contextText, 80);
  if (f.frame) hit.frame = f.frame;
  if (f.overlay)
    hit.overlay = `${f.overlay.role}${f.overlay.label ? ` "${normalizeText(f.overlay.label, 60)}"` : ''}`;
  if (f.checked !== undefined && !control) hit.checked = f.checked;
  // The background's own box (html's layout box) says nothing about where the point is: left out.
  const rect = control ? control.rect : f.rect;
  if (rect && !f.background) hit.rect = roundBox(rect);
  return hit;
}

/** A box rounded to 0.01 px for answers: floats stay exact inside, answers stay readable. */
export function roundBox(r: { x: number; y: number; width: number; height: number }) {
  const q = (n: number) => Math.round(n * 100) / 100;
  return { x: q(r.x), y: q(r.y), width: q(r.width), height: q(r.height) };
}

/** One named difference between what the point held at capture and what it holds now. */
export interface Difference {
  field: 'node' | 'frame' | 'role' | 'text' | 'record' | 'checked' | 'control' | `attr:${string}`;
  /** As it was at capture. */
  was: string;
  now: string;
}

const short = (s: string | undefined, n = 64) => normalizeText(s, n);

/**
 * The one compare of two fingerprints: the same element (node, frame), still the same thing (role, text,
 * identity attributes, checked state, the control it belongs to) in the same record (the row's text).
 * Empty when they agree. Two page backgrounds agree whatever the page's text.
 */
export function diffFacts(then: ElementFacts, now: ElementFacts): Difference[] {
  if (then.background && now.background && (then.frame ?? '') === (now.frame ?? '')) return [];
  const out: Difference[] = [];
  const add = (field: Difference['field'], a: string | undefined, b: string | undefined) => {
    if ((a ?? '') !== (b ?? '')) out.push({ field, was: a ?? '', now: b ?? '' });
  };
  add('frame', then.frame, now.frame);
  if (then.backendNodeId !== now.backendNodeId)
    out.push({ field: 'node', was: then.tag.toLowerCase(), now: now.tag.toLowerCase() });
  add('role', then.role, now.role);
  add('text', normalizeText(then.text), normalizeText(now.text));
  for (const k of new Set([...Object.keys(then.attrs), ...Object.keys(now.attrs)]))
    if (!NAMING_ONLY.includes(k)) add(`attr:${k}`, then.attrs[k], now.attrs[k]);
  if (then.checked !== undefined && now.checked !== undefined)
    add('checked', String(then.checked), String(now.checked));
  add('control', controlKey(then), controlKey(now));
  add('record', normalizeText(then.contextText, 300), normalizeText(now.contextText, 300));
  return out;
}

function controlKey(f: ElementFacts): string {
  const c = f.actionable;
  if (!c) return '';
  const { title: _t, ...attrs } = c.attrs;
  return `${c.role} ${c.tag} ${normalizeText(c.text)} ${JSON.stringify(attrs)}`;
}

export function sameElement(then: ElementFacts, now: ElementFacts): boolean {
  return diffFacts(then, now).length === 0;
}

/** What changed, for the agent: `its row "TCK-7741 Fix login" now reads "TCK-7736 Update docs"`. */
export function describeDifferences(diffs: Difference[], then: ElementFacts): string {
  const rec = then.recordTag ? recordWord(then.recordTag) : 'row';
  const parts: string[] = [];
  for (const d of diffs.slice(0, 3)) {
    if (d.field === 'record') {
      parts.push(
        d.was
          ? d.now
            ? `its ${rec} "${short(d.was)}" now reads "${short(d.now)}"`
            : `its ${rec} "${short(d.was)}" is gone`
          : `it is now inside a ${rec} "${short(d.now)}"`,
      );
    } else if (d.field === 'node')
      parts.push(
        d.was === d.now ? 'another element is there' : `a ${d.now} is there instead of the ${d.was}`,
      );
    else if (d.field === 'text') parts.push(`its text "${short(d.was)}" now reads "${short(d.now)}"`);
    else if (d.field === 'frame') parts.push('the point is now in another frame');
    else if (d.field === 'checked')
      parts.push(
        `it was ${d.was === 'true' ? 'checked' : 'unchecked'}, now it is ${d.now === 'true' ? 'checked' : 'unchecked'}`,
      );
    else if (d.field === 'control') parts.push('it belongs to another control now');
    else parts.push(`its ${d.field.replace('attr:', '')} was "${short(d.was)}", now "${short(d.now)}"`);
  }
  return parts.join('; ');
}

function recordWord(tag: string): string {
  if (tag === 'TR') return 'row';
  if (tag === 'LI') return 'list item';
  if (tag === 'ARTICLE') return 'card';
  return 'record';
}

/** One line for a human or a model: `button "Delete" (row "TCK-7741 …")`. */
export function describeHit(h: Hit | null | undefined): string {
  if (!h) return 'nothing';
  if (h.role === 'background') return `the page background (${h.tag})${h.frame ? ' of an iframe' : ''}`;
  const core = roleAndLabel(h, h.id ? `#${h.id}` : '');
  const where = `${h.overlay ? ` in ${h.overlay}` : ''}${h.frame ? ' inside an iframe' : ''}`;
  return h.context && h.context !== (h.name || h.text)
    ? `${core} in "${h.context}"${where}`
    : `${core}${where}`;
}

/** `button "Approve"`: the role (or tag when it has none), an optional suffix, and the visible label. */
export function roleAndLabel(h: Hit, suffix = ''): string {
  const label = h.name || h.text;
  return `${h.role === 'generic' ? h.tag : h.role}${suffix}${label ? ` "${label}"` : ''}`;
}
