/**
 * What we know about one element, gathered the same way from a DOM snapshot (capture time) and from the live
 * page (now), so that "same node, same text, same row" compares like with like.
 */
export interface ElementFacts {
  backendNodeId: number;
  tag: string;
  attrs: Record<string, string>;
  /** textContent, whitespace collapsed, capped. */
  text: string;
  value?: string;
  checked?: boolean;
  labelText?: string;
  /** The text of the nearest row / list item / card around the element: what tells one "Delete" from another. */
  contextText?: string;
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
  context?: string;
  checked?: boolean;
  rect?: { x: number; y: number; width: number; height: number };
}

export const TEXT_CAP = 160;
export const CONTEXT_SELECTOR_TAGS = ['TR', 'LI', 'ARTICLE'];
export const CONTEXT_ROLES = ['row', 'listitem', 'article', 'option', 'treeitem', 'gridcell'];
export const ACTIONABLE_TAGS = ['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY', 'LABEL'];
export const ACTIONABLE_ROLES = [
  'button',
  'link',
  'checkbox',
  'radio',
  'tab',
  'menuitem',
  'option',
  'switch',
  'textbox',
  'combobox',
  'slider',
];

/** A control an agent acts on: a native one, one with an interactive role, or one with an onclick. */
export function isActionable(tag: string, attrs: Record<string, string>): boolean {
  if (tag === 'A') return 'href' in attrs;
  return ACTIONABLE_TAGS.includes(tag) || ACTIONABLE_ROLES.includes(attrs.role ?? '') || 'onclick' in attrs;
}

export function normalizeText(s: string | undefined | null, cap = TEXT_CAP): string {
  if (!s) return '';
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > cap ? `${t.slice(0, cap - 1)}…` : t;
}

function implicitRole(tag: string, attrs: Record<string, string>): string {
  const type = (attrs.type ?? '').toLowerCase();
  switch (tag) {
    case 'A':
      return 'href' in attrs ? 'link' : 'generic';
    case 'BUTTON':
      return 'button';
    case 'INPUT':
      if (['button', 'submit', 'reset', 'image'].includes(type)) return 'button';
      if (type === 'checkbox') return 'checkbox';
      if (type === 'radio') return 'radio';
      if (type === 'range') return 'slider';
      if (type === 'search') return 'searchbox';
      return 'textbox';
    case 'TEXTAREA':
      return 'textbox';
    case 'SELECT':
      return 'combobox';
    case 'IMG':
      return 'img';
    case 'TR':
      return 'row';
    case 'TD':
      return 'cell';
    case 'TH':
      return 'columnheader';
    case 'LI':
      return 'listitem';
    case 'CANVAS':
      return 'img';
    case 'LABEL':
      return 'label';
    case 'H1':
    case 'H2':
    case 'H3':
    case 'H4':
    case 'H5':
    case 'H6':
      return 'heading';
    default:
      return 'generic';
  }
}

export function toHit(f: ElementFacts): Hit {
  // Report the control (the button), not the span inside it; nodeId stays the node under the point.
  const control = f.actionable;
  const own = control ?? f;
  const a = own.attrs;
  const role = a.role?.trim() || implicitRole(own.tag, a);
  const ownLabel = control ? '' : f.labelText || '';
  const ownValue = control ? '' : f.value || '';
  const name = normalizeText(
    a['aria-label'] || a.alt || ownLabel || a.title || a.placeholder || own.text || ownValue || '',
    80,
  );
  const hit: Hit = {
    tag: own.tag.toLowerCase(),
    text: normalizeText(own.text, 80),
    role,
    name,
    nodeId: f.backendNodeId,
  };
  if (a.id) hit.id = a.id;
  if (f.contextText) hit.context = normalizeText(f.contextText, 80);
  if (f.checked !== undefined && !control) hit.checked = f.checked;
  const rect = control ? control.rect : f.rect;
  if (rect) hit.rect = roundBox(rect);
  return hit;
}

/** A box rounded to 0.01 px for answers: floats stay exact inside, answers stay readable. */
export function roundBox(r: { x: number; y: number; width: number; height: number }) {
  const q = (n: number) => Math.round(n * 100) / 100;
  return { x: q(r.x), y: q(r.y), width: q(r.width), height: q(r.height) };
}

/** Same element in the sense of the guard: same node, same text, same surrounding row. */
export function sameElement(then: ElementFacts, now: ElementFacts): boolean {
  return (
    then.backendNodeId === now.backendNodeId &&
    normalizeText(then.text) === normalizeText(now.text) &&
    normalizeText(then.contextText) === normalizeText(now.contextText)
  );
}

/** One line for a human or a model: `button "Delete" (row "TCK-7741 …")`. */
export function describeHit(h: Hit | null | undefined): string {
  if (!h) return 'nothing';
  const core = roleAndLabel(h, h.id ? `#${h.id}` : '');
  return h.context && h.context !== (h.name || h.text) ? `${core} in "${h.context}"` : core;
}

/** `button "Approve"`: the role (or tag when it has none), an optional suffix, and the visible label. */
export function roleAndLabel(h: Hit, suffix = ''): string {
  const label = h.name || h.text;
  return `${h.role === 'generic' ? h.tag : h.role}${suffix}${label ? ` "${label}"` : ''}`;
}
