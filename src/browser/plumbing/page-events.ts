import type { Dialog, FileChooser, Page } from 'playwright-core';

/** A JavaScript dialog as the agent is told about it. */
export interface DialogInfo {
  type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  message: string;
  defaultValue?: string;
  url?: string;
}

/** "an alert dialog", "a confirm dialog": the dialog named as a sentence names it. */
export const aDialog = (d: Pick<DialogInfo, 'type'>) => `${d.type === 'alert' ? 'an' : 'a'} ${d.type} dialog`;

/**
 * What a page holds open for the agent to answer: a JavaScript dialog or a file chooser. Listening keeps
 * them open (Playwright dismisses a dialog nobody listens for, which silently took a confirm()'s "no"
 * branch), and input sent while a dialog is up is not acknowledged until it is answered (measured here:
 * the mouseReleased that ran confirm() was acked only when the dialog closed). So every input races the
 * dialog (PageDriver.input), and the action that opened it reports it.
 */
export class PageEvents {
  private static readonly known = new WeakMap<Page, PageEvents>();
  private openDialog: Dialog | null = null;
  private openChooser: FileChooser | null = null;
  private readonly dialogWaiters = new Set<(d: Dialog) => void>();
  private readonly chooserWaiters = new Set<(c: FileChooser) => void>();
  /** Work that had to wait for the dialog to be answered (releasing a guard: the page was frozen). */
  private afterAnswer: Array<() => Promise<unknown>> = [];

  static of(page: Page): PageEvents {
    let e = PageEvents.known.get(page);
    if (!e) {
      e = new PageEvents(page);
      PageEvents.known.set(page, e);
    }
    return e;
  }

  private constructor(page: Page) {
    page.on('dialog', (d) => {
      this.openDialog = d;
      for (const w of this.dialogWaiters) w(d);
    });
    page.on('filechooser', (c) => {
      this.openChooser = c;
      for (const w of this.chooserWaiters) w(c);
    });
    page.on('close', () => {
      this.openDialog = null;
      this.openChooser = null;
    });
  }

  get dialog(): DialogInfo | null {
    return this.openDialog ? describeDialog(this.openDialog) : null;
  }

  get chooser(): FileChooser | null {
    return this.openChooser;
  }

  /** Resolves when a dialog opens (or at once if one is open); `cancel` stops waiting. */
  nextDialog(): { opened: Promise<Dialog>; cancel: () => void } {
    return this.next(this.openDialog, this.dialogWaiters);
  }

  nextChooser(): { opened: Promise<FileChooser>; cancel: () => void } {
    return this.next(this.openChooser, this.chooserWaiters);
  }

  private next<T>(open: T | null, waiters: Set<(v: T) => void>): { opened: Promise<T>; cancel: () => void } {
    if (open) return { opened: Promise.resolve(open), cancel: () => {} };
    let resolve: (v: T) => void = () => {};
    const opened = new Promise<T>((r) => {
      resolve = r;
    });
    waiters.add(resolve);
    return { opened, cancel: () => waiters.delete(resolve) };
  }

  /**
   * Runs work that may raise a dialog (input, a navigation that meets a beforeunload): settles with its value,
   * or as soon as a dialog opens, leaving the work to finish in the background once the dialog is answered.
   */
  async race<T>(work: Promise<T>): Promise<{ done: true; value: T } | { done: false; dialog: DialogInfo }> {
    const open = this.dialog;
    if (open) {
      work.catch(() => {});
      return { done: false, dialog: open };
    }
    const watch = this.nextDialog();
    try {
      return await Promise.race([
        work.then((value) => ({ done: true, value }) as const),
        watch.opened.then((d) => ({ done: false, dialog: describeDialog(d) }) as const),
      ]);
    } finally {
      watch.cancel();
      work.catch(() => {});
    }
  }

  /** Answers the open dialog; returns what it was, or null when none is open. */
  async answerDialog(accept: boolean, promptText?: string): Promise<DialogInfo | null> {
    const d = this.openDialog;
    if (!d) return null;
    this.openDialog = null;
    const info = describeDialog(d);
    try {
      if (accept) await d.accept(promptText);
      else await d.dismiss();
    } catch (err) {
      // Answered elsewhere a moment before (the person, another client): there is none to answer now.
      if (/No dialog is showing/.test(String(err))) return null;
      throw err;
    } finally {
      await this.answered();
    }
    return info;
  }

  /**
   * The page says its dialog closed (Page.javascriptDialogClosed). Answered here, it is already forgotten;
   * answered elsewhere (the person in their own browser, another client), it is forgotten now, or every tool
   * would wait on it until the page closed.
   */
  dialogClosed(): void {
    if (!this.openDialog) return;
    this.openDialog = null;
    void this.answered();
  }

  /** Runs the work that waited for the dialog's answer. */
  private answered(): Promise<unknown> {
    return Promise.all(this.afterAnswer.splice(0).map((f) => f().catch(() => {})));
  }

  /** Runs once the open dialog has been answered; at once when none is open. */
  onDialogAnswered(f: () => Promise<unknown>): void {
    // A dialog answered before this was asked (elsewhere, within ms): the work runs now, not at the next one.
    if (this.openDialog) this.afterAnswer.push(f);
    else f().catch(() => {});
  }

  /** Takes the open file chooser (it is answered once). */
  takeChooser(): FileChooser | null {
    const c = this.openChooser;
    this.openChooser = null;
    return c;
  }
}

function describeDialog(d: Dialog): DialogInfo {
  const info: DialogInfo = { type: d.type() as DialogInfo['type'], message: d.message() };
  if (info.type === 'prompt') info.defaultValue = d.defaultValue();
  const url = d.page()?.url();
  if (url) info.url = url;
  return info;
}
