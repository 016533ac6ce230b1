import { describeHit } from '../../browser/identity/element-facts.js';
import { callOnNode } from '../../browser/identity/frame-driver.js';
import type { LiveFacts } from '../../browser/identity/hit-test.js';
import { newDocument } from '../check/check.js';
import { checkPoint } from '../check/pipeline.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import { type ClickReport, fmtPoint } from '../check/verdicts.js';

export interface SelectedOption {
  value: string;
  label: string;
}

/**
 * The report of picking options in a `<select>` at a checked point: the same checks as a click, then the
 * options selected after the call.
 */
export interface SelectReport extends ClickReport {
  /** The options selected after the call, as the element reports them. */
  selected?: SelectedOption[];
}

/**
 * Runs on the checked element in trueclick's isolated world, in one go, so nothing can change between the
 * last look and the selection: the element (or its record) must still read as it did at the check; then
 * each wanted option is found by value, else by label (exact, then case-insensitive), and the select's
 * `input` and `change` events are fired as a user's pick fires them (React listens to these).
 */
const SELECT_OPTIONS = `function (values, was) {
  const g = window.__trueclick;
  let el = this.nodeType === 1 ? this : this.parentElement;
  if (el instanceof HTMLOptionElement || el instanceof HTMLOptGroupElement) el = el.closest('select');
  if (el instanceof HTMLLabelElement && el.control instanceof HTMLSelectElement) el = el.control;
  if (!(el instanceof HTMLSelectElement)) return { notSelect: true };
  const f = g.facts(g.canonical(this.nodeType === 1 ? this : this.parentElement));
  const now = JSON.stringify([f.text, f.attrs, f.contextText || '']);
  if (now !== was) return { changed: true };
  if (el.disabled) return { disabled: true };
  const options = Array.from(el.options);
  const norm = (s) => s.replace(/\\s+/g, ' ').trim();
  const picked = [];
  for (const v of values) {
    const o = options.find((o) => o.value === v) || options.find((o) => norm(o.label) === norm(v)) ||
      options.find((o) => norm(o.label).toLowerCase() === norm(v).toLowerCase());
    if (!o) return { missing: v, options: options.map((o) => ({ value: o.value, label: norm(o.label), disabled: o.disabled })) };
    if (o.disabled) return { disabledOption: norm(o.label) };
    picked.push(o);
  }
  if (!el.multiple && picked.length > 1) return { single: true };
  for (const o of options) o.selected = picked.includes(o);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { selected: Array.from(el.selectedOptions).map((o) => ({ value: o.value, label: norm(o.label) })) };
}`;

type SelectResult =
  | { selected: SelectedOption[] }
  | { notSelect: true }
  | { changed: true }
  | { disabled: true }
  | { single: true }
  | { disabledOption: string }
  | { missing: string; options: Array<{ value: string; label: string; disabled: boolean }> };

function selectIn(live: LiveFacts, values: string[]): Promise<SelectResult | null> {
  const { at } = live;
  const was = JSON.stringify([live.text, live.attrs, live.contextText ?? '']);
  return callOnNode<SelectResult>(at.driver, at.frameId, at.backendNodeId, SELECT_OPTIONS, [values, was]);
}

/**
 * Picks options of a native `<select>` at a checked point. A native select's popup is drawn by the browser
 * outside the page, so it cannot be read off a screenshot or clicked: the agent targets the select and names
 * the options by label or value, and gets the selection back.
 */
export async function guardedSelect(
  ctx: ActionContext,
  req: ClickRequest,
  values: string[],
): Promise<SelectReport> {
  const { attempt: a, refusal } = await checkPoint(ctx, req, { kind: 'select' });
  if (refusal) return refusal;
  const report: SelectReport = a.report;
  const refuse = (verdict: ClickReport['verdict'], message: string): SelectReport => ({
    ...report,
    verdict,
    message: `Not selected: ${message}`,
  });
  const live = a.live;
  if (!live) return refuse('MISSED_TARGET', `the point CSS ${fmtPoint(a.vp)} holds nothing.`);
  const doc = ctx.driver.loaderId;
  const r = await selectIn(live, values);
  const gone = newDocument(ctx.driver, doc);
  if (!r || 'changed' in r)
    return refuse(
      'STALE_TARGET',
      `${gone ?? `${describeHit(report.hitNow)} changed`} between the check and the selection. Take a new screenshot.`,
    );
  if ('notSelect' in r)
    return refuse(
      'MISSED_TARGET',
      `the point holds ${describeHit(report.hitNow)}, not a native <select>. For a custom dropdown, click it (browser_click), take a screenshot and click the option.`,
    );
  if ('disabled' in r) return refuse('MISSED_TARGET', `${describeHit(report.hitNow)} is disabled.`);
  if ('single' in r)
    return refuse(
      'MISSED_TARGET',
      `${describeHit(report.hitNow)} takes one option, and ${values.length} were given.`,
    );
  if ('disabledOption' in r) return refuse('MISSED_TARGET', `the option "${r.disabledOption}" is disabled.`);
  if ('missing' in r) {
    const list = r.options
      .slice(0, 30)
      .map(
        (o) =>
          `"${o.label}"${o.value !== o.label ? ` (value "${o.value}")` : ''}${o.disabled ? ' (disabled)' : ''}`,
      )
      .join(', ');
    return refuse(
      'MISSED_TARGET',
      `${describeHit(report.hitNow)} has no option "${r.missing}". Its options: ${list}.`,
    );
  }
  report.dispatched = a.vp;
  report.landed = report.hitNow;
  report.selected = r.selected;
  report.message = `Selected ${r.selected.map((o) => `"${o.label}"${o.value !== o.label ? ` (value "${o.value}")` : ''}`).join(', ') || 'nothing'} in ${describeHit(report.hitNow)}${report.frame ? ', the element that was there in the frame' : ''}.`;
  return report;
}
