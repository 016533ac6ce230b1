import type { PressEffect } from '../../browser/identity/guard-effect.js';
import { readEffect } from '../../browser/identity/guard-end.js';
import { drawnByPress } from '../pixels/pixel-effect.js';
import type { Attempt } from './attempt.js';
import type { ClickReport, Effect } from './verdicts.js';

export type { Effect } from './verdicts.js';

/** Roles of what a press opens over the page (Bootstrap's dropdown menu is a plain list). */
const POPUPS = ['menu', 'listbox', 'dialog', 'alertdialog', 'tooltip', 'list', 'tree', 'grid'];

const STATE_WORDS: Record<string, (v: string) => string> = {
  checked: (v) => (v === 'true' ? 'now checked' : 'now unchecked'),
  'aria-checked': (v) => (v === 'true' ? 'now checked' : 'now unchecked'),
  'aria-expanded': (v) => (v === 'true' ? 'now expanded' : 'now collapsed'),
  'aria-pressed': (v) => (v === 'true' ? 'now pressed' : 'now released'),
  'aria-selected': (v) => (v === 'true' ? 'now selected' : 'now not selected'),
  selected: (v) => (v === 'true' ? 'now selected' : 'now not selected'),
  focused: (v) => (v === 'true' ? 'now focused' : 'no longer focused'),
  chosen: (v) => (v ? `now has "${v}" selected` : 'now has nothing selected'),
  open: (v) => (v === 'true' ? 'now open' : 'now closed'),
  value: (v) => `now holds "${v}"`,
};

/** The effect of the press the page recorded, in words. */
export function nameEffect(fx: PressEffect, withinMs: number): Effect {
  // What came when the control says it expanded is what it opened, whatever its role.
  const expanded = fx.changed.includes('aria-expanded=true');
  const popup = fx.appeared.find((a) => POPUPS.includes(a.role)) ?? (expanded ? fx.appeared[0] : undefined);
  if (popup)
    return { kind: 'opened', what: popup.role === 'generic' ? 'popup' : popup.role, name: popup.name };
  if (fx.optionList) return { kind: 'opened', what: "the select's option list (the browser draws it)" };
  const what = [
    ...fx.changed.map((s) => {
      const [k = '', v = ''] = s.split(/=(.*)/s);
      return `${fx.control} ${STATE_WORDS[k]?.(v) ?? `${k} ${v}`}`;
    }),
    ...fx.appeared.map((a) => `${a.role} "${a.name}" appeared`),
    ...(fx.hidden ?? []).map((a) => `${a.role} "${a.name}" hidden`),
    ...fx.gone.filter(Boolean).map((t) => `"${t}" removed`),
    ...(fx.text > 0 ? ['text of its row changed'] : []),
    ...(fx.elsewhere ?? []).map((t) => `text elsewhere now reads "${t}"`),
  ];
  return what.length ? { kind: 'changed', what: what.slice(0, 4) } : { kind: 'none', withinMs };
}

export function effectSentence(e: Effect): string {
  switch (e.kind) {
    case 'opened':
      return ` It opened ${e.what}${e.name ? ` "${e.name}"` : ''}.`;
    case 'changed':
      return ` It changed the page: ${e.what.join('; ')}.`;
    case 'none':
      if (e.pixels === 'same')
        return ` Neither its DOM nor the band under the point visibly changed within ${e.withinMs} ms after it (the rest of the canvas was not compared).`;
      if (e.pixels)
        return ` Nothing in the page's DOM changed within ${e.withinMs} ms after it; the pixels under the point were not read after it (${e.unread ?? 'no answer'}), so they do not say what the press did.`;
      return ` Nothing on the page changed in the first ${e.withinMs} ms after it (later changes are not watched).`;
    default:
      return '';
  }
}

/** After an OK press: the navigation it made, else what the page recorded since the press. */
export async function pressEffect(a: Attempt, report: ClickReport, since: number): Promise<void> {
  if (report.verdict !== 'OK') return;
  if (report.navigation) {
    report.effect = { kind: 'navigated', ...(report.navigation.url ? { url: report.navigation.url } : {}) };
    return;
  }
  const at = a.live?.at;
  const fx = a.effect !== undefined ? a.effect : at ? await readEffect(at).catch(() => null) : null;
  if (!fx) return;
  report.effect = nameEffect(fx, Math.max(1, Date.now() - since));
  // The DOM of a canvas app says nothing of what a press did there: its pixels do.
  if (report.effect.kind === 'none' && a.pixelStage?.before) {
    const px = await drawnByPress(a);
    if ('drawn' in px) report.effect = { kind: 'changed', what: [px.drawn] };
    else if ('same' in px) report.effect.pixels = 'same';
    else Object.assign(report.effect, { pixels: 'unread', unread: px.unread });
  }
  report.message += effectSentence(report.effect);
}
