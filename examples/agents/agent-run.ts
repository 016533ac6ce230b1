// trueclick's side of the five agent loops in this folder. Each family's file (claude.ts, openai.ts,
// gemini.ts, ui-tars.ts, qwen.ts) keeps the conversation in that family's own message format; what does not
// depend on the format is here: `AgentRun` runs the model's native action(s) with session.act and turns each
// verdict into what an agent does next (a note for the model, a unit change, a dialog answered, a question
// for the user), and counts turns. The scripted stand-in model is in stand-in.ts, shared shapes in loop.ts.
// In your project, import from 'trueclick' and 'trueclick/geometry' instead of ../../src.

import { conventionFor, type PresetName, resolveRequest } from '../../src/geometry/index.js';
import {
  type ActResult,
  type DialogInfo,
  ERROR_VERDICTS,
  type Expect,
  runAct,
  type Screenshot,
  type StepOutcome,
  TrueclickError,
} from '../../src/index.js';
import {
  type AgentOptions,
  type AgentSummary,
  type ConfirmRequest,
  LOOK_FIRST,
  modelPoint,
  NOTHING_DONE,
  REREAD,
  verdictOf,
} from './loop.js';

const round = (v: number) => Math.round(v);

/** What executing one model turn came to. */
export type Executed =
  /** The family's safety gate stopped it before anything ran: ask the user, then re-send with the ack. */
  | { kind: 'safety'; message: string }
  | {
      kind: 'ran';
      verdict: string;
      /** The act result to build the family's reply from (absent when act refused the input as a whole). */
      result?: ActResult;
      /** What to tell the model beside the family's reply. */
      note?: string;
      /** The frame to show the model next (the one act took, or one taken after a dialog). */
      screenshot: Screenshot;
    };

/** trueclick's side of an agent loop: one per run. */
export class AgentRun {
  readonly verdicts: string[] = [];
  readonly asked: AgentSummary['asked'] = [];
  turns = 0;
  /** Width at which the model evidently reads the screenshots (after a FRAME_MISMATCH). */
  shownWidth: number | undefined;
  private shownHeight: number | undefined;
  private readonly maxTurns: number;

  constructor(
    readonly family: string,
    readonly model: PresetName,
    private readonly o: AgentOptions<unknown>,
  ) {
    this.maxTurns = o.maxTurns ?? 12;
  }

  /** Counts a model call; false once the run has used its turns. */
  nextTurn(): boolean {
    if (this.turns >= this.maxTurns) return false;
    this.turns++;
    return true;
  }

  async ask(request: ConfirmRequest): Promise<boolean> {
    const answer = this.o.confirm ? await this.o.confirm(request) : false;
    this.asked.push({ ...request, answer });
    return answer;
  }

  /**
   * Runs the model's action(s) against the frame it saw and decides what the model is told. `ack` carries
   * the family's safety acknowledgement, once the user said yes.
   */
  async execute(
    shot: Screenshot,
    action: unknown,
    expect: Expect | undefined,
    ack: { acknowledged_safety_checks?: string[]; safety_acknowledged?: boolean } = {},
  ): Promise<Executed> {
    const session = this.o.session;
    let result: ActResult;
    try {
      result = await runAct(session, {
        frame: shot.frame.id,
        model: this.model,
        action,
        ...(expect ? { expect } : {}),
        ...(this.shownWidth ? { shown_width: this.shownWidth } : {}),
        ...(this.shownHeight ? { shown_height: this.shownHeight } : {}),
        ...ack,
      });
    } catch (err) {
      if (!(err instanceof TrueclickError)) throw err;
      if (err.code === 'SAFETY_CHECK_PENDING' || err.code === 'SAFETY_CONFIRMATION_REQUIRED') {
        this.verdicts.push('BLOCKED');
        return { kind: 'safety', message: err.problem };
      }
      // The input as a whole was refused (a point off the image, an unknown action), or the browser did
      // not answer: nothing is known to have run.
      const verdict = ERROR_VERDICTS[err.kind];
      this.verdicts.push(verdict);
      let note = `${NOTHING_DONE}: ${err.problem} ${err.hint}`;
      // A page frozen by a dialog answers nothing: answer the dialog first (see answerOpenDialog).
      const dialog = err.kind === 'bad_input' ? null : await this.answerOpenDialog();
      if (dialog) note = `The page opened a dialog while your action ran. ${dialog} ${LOOK_FIRST}.`;
      return { kind: 'ran', verdict, note, screenshot: dialog ? await session.screenshot() : shot };
    }
    const { verdict, step } = verdictOf(result);
    this.verdicts.push(verdict);
    let note: string | undefined;
    switch (verdict) {
      case 'OK':
        break;
      case 'STALE_TARGET':
      case 'COVERED':
        // act already took the new screenshot: the model answers again from it.
        note = `${NOTHING_DONE}: the page changed under your point before it ran (${verdict}). The screenshot above is new: find the target again there.`;
        break;
      case 'MISSED_TARGET':
        note = this.missed(step, shot);
        break;
      case 'FRAME_MISMATCH': {
        const fixed = this.changeUnits(result, step, shot);
        if (fixed) return this.rerun(shot, action, expect, ack, fixed);
        note = `${NOTHING_DONE}: ${step?.report?.diagnosis?.message ?? 'your last points were all off by one transform.'} ${REREAD} and write coordinates in ${unitsOf(this.model)}.`;
        break;
      }
      case 'LANDED_ELSEWHERE':
      case 'UNVERIFIED':
        note = `Your action was sent, but ${verdict === 'UNVERIFIED' ? 'whether it took effect is not known' : 'it did not land where you aimed'}: ${step?.message ?? ''} ${LOOK_FIRST}.`;
        break;
      default:
        note = `${NOTHING_DONE} from ${step?.name ?? 'your action'} on: ${step?.message ?? verdict}`;
    }
    let screenshot = result.screenshot;
    const dialog = result.dialog
      ? await this.answerDialog(result.dialog)
      : verdict === 'BLOCKED'
        ? await this.answerOpenDialog()
        : null;
    if (dialog) {
      note = [note, dialog].filter(Boolean).join(' ');
      screenshot = await session.screenshot();
    }
    return { kind: 'ran', verdict, result, ...(note ? { note } : {}), screenshot: screenshot ?? shot };
  }

  private async rerun(
    shot: Screenshot,
    action: unknown,
    expect: Expect | undefined,
    ack: Parameters<AgentRun['execute']>[3],
    why: string,
  ): Promise<Executed> {
    const again = await this.execute(shot, action, expect, ack);
    if (again.kind === 'ran') again.note = [why, again.note].filter(Boolean).join(' ');
    return again;
  }

  /** MISSED_TARGET: where the element the model named was, in its own coordinates. */
  private missed(step: StepOutcome | undefined, shot: Screenshot): string {
    const at = step?.report?.expectedAt;
    if (!at) return `${NOTHING_DONE}: ${step?.message ?? 'your point was not on what you named.'}`;
    const [x, y] = modelPoint(at.css, this.model, shot.frame.geometry, this.shownWidth);
    return `${NOTHING_DONE}: your point was not on the element you named. That element is at (${x}, ${y}) in your coordinates.`;
  }

  /**
   * FRAME_MISMATCH: the misses fit one scale. If the model evidently read the image at another width (a client
   * that resized it, a model that assumed device pixels), reading its numbers at that width puts its last
   * point on what it named; then the loop keeps that width. Returns the sentence for the model, or null.
   */
  private changeUnits(result: ActResult, step: StepOutcome | undefined, shot: Screenshot): string | null {
    const diagnosis = step?.report?.diagnosis;
    const target = step?.report?.expectedAt?.css;
    const native = step ? result.batch.steps[step.index] : undefined;
    const p = native && 'at' in native ? native.at : native?.kind === 'drag' ? native.from : undefined;
    if (!diagnosis || !target || !p) return null;
    const g = shot.frame.geometry;
    const width = round((this.shownWidth ?? g.image.width) * diagnosis.scale.x);
    const perAxis = Math.abs(diagnosis.scale.x - diagnosis.scale.y) > 0.01 * diagnosis.scale.x;
    const height = perAxis ? round((this.shownHeight ?? g.image.height) * diagnosis.scale.y) : undefined;
    if (width < 16 || (height !== undefined && height < 16)) return null;
    const css = resolveRequest(
      {
        x: p.x,
        y: p.y,
        model: this.model,
        axis_order: 'xy',
        shown_width: width,
        ...(height ? { shown_height: height } : {}),
      },
      g,
    ).css;
    // Only a width that explains the model's own point is adopted (a model's resize rule may undo it).
    if (Math.hypot(css.x - target.x, css.y - target.y) > Math.max(6, 0.01 * g.css.width)) return null;
    this.shownWidth = width;
    this.shownHeight = height;
    return `(Your coordinates are now read as pixels of a ${width} px wide image: the width you evidently read the screenshot at.)`;
  }

  /** A dialog the action opened: the user decides confirm/prompt/beforeunload; an alert is just closed. */
  private async answerDialog(dialog: DialogInfo): Promise<string> {
    const accept =
      dialog.type === 'alert' ||
      (await this.ask({
        kind: 'dialog',
        message: `The page asks (${dialog.type}): "${dialog.message}". Accept?`,
        dialog,
      }));
    const answer = await this.o.session.handleDialog(accept);
    return `The page showed a ${dialog.type} dialog "${dialog.message}"; it was answered ${accept ? 'OK' : 'Cancel'}. The page is now at ${answer.url}.`;
  }

  /** A dialog that is open without the act result naming it (the batch was refused as a whole). */
  private async answerOpenDialog(): Promise<string | null> {
    const dialog = this.o.session.dialog;
    return dialog ? this.answerDialog(dialog) : null;
  }

  async summary(
    final: AgentSummary['final'],
    messages: unknown[],
    finalText?: string,
  ): Promise<AgentSummary> {
    return {
      family: this.family,
      model: this.model,
      turns: this.turns,
      verdicts: this.verdicts,
      asked: this.asked,
      ...(this.shownWidth ? { shownWidth: this.shownWidth } : {}),
      final,
      ...(finalText ? { finalText } : {}),
      url: (await this.o.session.driver()).page.url(),
      messages,
    };
  }
}

function unitsOf(model: PresetName): string {
  const c = conventionFor({ model }, undefined);
  return c.units === 'permille'
    ? 'thousandths of the image (0–999 across and down)'
    : 'pixels of the screenshot exactly as you were shown it';
}
