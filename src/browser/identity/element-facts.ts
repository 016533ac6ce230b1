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
  /** What tells the record apart, part by part (identity.ts recordParts): what is compared. */
  recordParts?: string[];
  /** The element sits in content that updates by itself (a timer, a progress bar, an aria-live region). */
  live?: true;
  /**
   * Live side only: for each record part, when (page clock, ms) its element's text last changed in place,
   * newest last, with `armedAt` as the clock's now. How a ticking duration is told from a re-sort.
   */
  partTimes?: number[][];
  /** The dialog, alert, toast or tooltip around the element: how a cover is named. */
  overlay?: { role: string; label: string };
  /** Why a press here would do nothing (identity.ts blocked): the control is disabled, or inert. */
  blocked?: { reason: 'disabled' | 'fieldset' | 'aria-disabled' | 'inert'; tag: string; text: string };
  /** A text field that takes no typing (`readonly`); live side only. */
  readonly?: true;
  /** The form a press of this submit control sends (its method and where); live side only. */
  submits?: { method: string; action: string };
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
/** data-* attributes that name a record: data-id, data-row-id, data-key, data-ticket-id, data-testid… */
export const DATA_ID = /^data-([a-z0-9-]*-)?(id|key|testid|test-id|uid|pk|slug|sku)$/;

/** A record element's own attributes that say which record it is (grids, virtual lists, feeds). */
const RECORD_ATTRS = ['aria-rowindex', 'aria-posinset', 'row-index', 'row-id'];

export const IDENTITY_LISTS: IdentityLists = {
  actionableTags: ACTIONABLE_TAGS,
  actionableRoles: ACTIONABLE_ROLES,
  identityAttrs: IDENTITY_ATTRS,
  dataId: DATA_ID.source,
  recordAttrs: RECORD_ATTRS,
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
