/**
 * Which presses a person must approve first (`serve --approve`, the library's `approve` option). Read off
 * what the guard already knows of the control at the point: its accessible name and text, the dialog it
 * sits in, and the form it submits. Pure: the same facts give the same answer, in a test as in a browser.
 */

export type ApprovePresses = 'destructive' | 'all';

export interface ApprovalPolicy {
  presses: ApprovePresses;
  /** Names that ask too (`--approve-when`), matched against the control's name and text. */
  when?: RegExp;
}

/** What the rule reads of the control a press would reach. */
export interface ControlFacts {
  name: string;
  text: string;
  role: string;
  /** The dialog or alert around the control, by its label ("Delete 3 tickets?"). */
  overlay?: string;
  /** The form a press would submit. */
  submits?: { method: string; action: string };
}

/**
 * Words of an action that cannot be taken back, or that spends or sends: English, and the German, French
 * and Spanish of the same acts. A whole word of the control's name or text, any case.
 */
const DESTRUCTIVE = [
  'delete',
  'remove',
  'archive',
  'discard',
  'erase',
  'destroy',
  'wipe',
  'purge',
  'revoke',
  'terminate',
  'pay',
  'buy',
  'purchase',
  'order',
  'checkout',
  'check out',
  'send',
  'transfer',
  'publish',
  'submit payment',
  'place order',
  'löschen',
  'entfernen',
  'kaufen',
  'bezahlen',
  'senden',
  'supprimer',
  'acheter',
  'payer',
  'envoyer',
  'eliminar',
  'borrar',
  'comprar',
  'pagar',
  'enviar',
];
const WORDS = new RegExp(`(?<![\\p{L}\\p{N}])(${DESTRUCTIVE.join('|')})(?![\\p{L}\\p{N}])`, 'iu');
/** A dialog's confirm button says yes to what the dialog names. */
const CONFIRM = /^(ok|yes|confirm|continue|proceed|i understand|ja|oui|sí|si)\b/i;

/**
 * Why this press needs a person's yes, as the sentence the person and the agent read; null when it does
 * not. The first reason that applies is given.
 */
export function approvalReason(policy: ApprovalPolicy, c: ControlFacts): string | null {
  const said = saidBy(c);
  if (policy.when?.test(said)) return `"${clip(said)}" matches --approve-when ${policy.when.source}`;
  if (policy.presses === 'all') return 'every press asks (--approve all)';
  const word = WORDS.exec(said)?.[1];
  if (word) return `"${clip(said)}" says ${word.toLowerCase()}`;
  if (c.overlay && CONFIRM.test(said) && WORDS.test(c.overlay))
    return `"${clip(said)}" confirms the dialog "${clip(c.overlay)}"`;
  if (c.submits?.method === 'post') return `it submits a POST form (to ${c.submits.action})`;
  return null;
}

/** Roles whose text is their own label: what a press on them does is written there. */
const CONTROLS = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'tab',
  'switch',
  'checkbox',
  'radio',
  'treeitem',
]);
/** Text this short is a label even on an element with no control role (a div made clickable by a script). */
const LABEL_WORDS = 4;

/**
 * What the press says it does: the control's accessible name, and its text where the text is its own label.
 * A container's text (a list, a row, the page's root) names every control inside it: a press on its empty
 * space deletes nothing.
 */
function saidBy(c: ControlFacts): string {
  const own = CONTROLS.has(c.role) || c.text.trim().split(/\s+/).length <= LABEL_WORDS;
  const text = own && c.text !== c.name ? c.text : '';
  return `${c.name} ${text}`.trim();
}

const clip = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s);
