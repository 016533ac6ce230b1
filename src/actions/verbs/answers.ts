import { pollUntil } from '../../browser/plumbing/errors.js';
import { type DialogInfo, PageEvents } from '../../browser/plumbing/page-events.js';
import { ActionError } from '../check/errors.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import type { ClickReport } from '../check/verdicts.js';
import { settleNavigation } from '../check/verify.js';
import { guardedClick } from './click.js';
import { allowedFiles, fillChooser, type UploadFile } from './upload.js';

// Answering what a page holds open for the agent: a JavaScript dialog, a file chooser.

/** How a JavaScript dialog (alert, confirm, prompt, beforeunload) was answered, and where the page went. */
export interface DialogAnswer {
  dialog: DialogInfo;
  accepted: boolean;
  promptText?: string;
  /** Where the page is after the answer (a confirm that deletes and navigates, a beforeunload left). */
  url: string;
}

/**
 * The files put into a file chooser (`files`, whether it took several: `multiple`), and the report of the
 * checked click that opened it when a target was given; a refused click leaves `files` empty.
 */
export interface UploadResult {
  click?: ClickReport;
  files: UploadFile[];
  multiple: boolean;
}

/** How long a page's script may take, after a dialog closes, to ask for a navigation. */
const AFTER_ANSWER_NAV_MS = 1_000;
/** How long a checked click may take to open its file chooser (a script may open it a moment later). */
const CHOOSER_BUDGET_MS = 2_000;

export async function answerDialog(
  ctx: ActionContext,
  accept: boolean,
  promptText?: string,
): Promise<DialogAnswer> {
  const { driver } = ctx;
  const events = PageEvents.of(driver.page);
  const none = () =>
    new ActionError(
      'NO_DIALOG',
      'No dialog is open on this tab.',
      'Dialogs are reported by the action that opened them; take a screenshot to see the page.',
    );
  if (!events.dialog) throw none();
  const nav = driver.watchNavigation();
  try {
    // null: answered elsewhere (the person, another client) a moment before.
    const dialog = await events.answerDialog(accept, promptText);
    if (!dialog) throw none();
    // What the page does on the answer: a confirm's "yes" that navigates, a beforeunload left. The page's
    // script runs on after the dialog closes; give it a moment to ask for a navigation, then let that one
    // commit, so the next call does not race it.
    const left = dialog.type === 'beforeunload' && accept;
    await pollUntil(
      () => Boolean(nav.record.requested || nav.record.committed) || left || events.dialog !== null,
      AFTER_ANSWER_NAV_MS,
      20,
    );
    if (!events.dialog) await settleNavigation(driver, nav.record, left || Boolean(nav.record.requested));
    return {
      dialog,
      accepted: accept,
      ...(promptText !== undefined ? { promptText } : {}),
      url: driver.page.url(),
    };
  } finally {
    nav.stop();
  }
}

/** Fills the file chooser a checked click opens (with `target`), or the one already open. */
export async function uploadFiles(
  ctx: ActionContext,
  paths: string[],
  root: string,
  target?: ClickRequest,
): Promise<UploadResult> {
  const files = await allowedFiles(paths, root);
  const events = PageEvents.of(ctx.driver.page);
  let click: ClickReport | undefined;
  if (target) {
    const waiting = events.nextChooser();
    click = await guardedClick(ctx, target);
    if (click.verdict !== 'OK') {
      waiting.cancel();
      return { click, files: [], multiple: false };
    }
    await Promise.race([waiting.opened, new Promise((r) => setTimeout(r, CHOOSER_BUDGET_MS))]);
    waiting.cancel();
  }
  const chooser = events.takeChooser();
  if (!chooser) {
    throw new ActionError(
      'NO_FILE_CHOOSER',
      target
        ? `The click landed (${click?.message}), but no file chooser opened.`
        : 'No file chooser is open on this tab.',
      'Pass the point of the file input (or of the button that opens the chooser) with paths, or click it first.',
      target ? 'x' : 'paths',
    );
  }
  await fillChooser(chooser, files);
  return { ...(click ? { click } : {}), files, multiple: chooser.isMultiple() };
}
