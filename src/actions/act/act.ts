import { settle } from '../../browser/plumbing/settle.js';
import { type FrameGeometry, GeometryError, resolveRequest, TrueclickError } from '../../geometry/index.js';
import {
  type NativeBatch,
  type NativePoint,
  type NativeStep,
  parseNativeAction,
  type StepKind,
} from '../../native/index.js';
import { ApprovalPending } from '../approval/gate.js';
import { ActionError } from '../check/errors.js';
import type { Expect } from '../check/expect.js';
import { ERROR_VERDICTS, type ErrorVerdict, type Point, type Verdict } from '../check/verdicts.js';
import type { FrameRecord } from '../session/frames.js';
import type { TrueclickSession } from '../session/session.js';
import { runStep } from './act-steps.js';
import type { ActRequest, ActResult, StepOutcome } from './act-types.js';

export type { ActRequest, ActResult, StepOutcome, StepStatus } from './act-types.js';

/** Steps that send input the page may answer by changing (what the next step is checked against). */
const SENDS_INPUT = new Set<StepKind>([
  'click',
  'move',
  'mouse_down',
  'mouse_up',
  'drag',
  'scroll',
  'type',
  'key',
  'hold_key',
  'key_down',
  'key_up',
]);

/** Actions that only ask the browser to be there: skipping them changes nothing for the ones after. */
const HARMLESS = new Set(['open_web_browser']);

/** The model's point, resolved in its family's convention against the frame: CSS viewport px at capture. */
function resolvePoint(p: NativePoint, req: ActRequest, frame: FrameGeometry | undefined): Point {
  try {
    const r = resolveRequest(
      {
        x: p.x,
        y: p.y,
        model: req.model,
        // Native actions name their axes (x, y), whatever the family's usual order for boxes.
        axis_order: 'xy',
        ...(req.shown_width !== undefined ? { shown_width: req.shown_width } : {}),
        ...(req.shown_height !== undefined ? { shown_height: req.shown_height } : {}),
      },
      frame,
    );
    return r.css;
  } catch (err) {
    if (err instanceof GeometryError) {
      const problem = err.problem.replace(/^x\/y /, '');
      throw new ActionError(err.code, `${p.field} ${problem}`, err.hint, p.field);
    }
    throw err;
  }
}

function pointsOf(step: NativeStep): NativePoint[] {
  switch (step.kind) {
    case 'click':
    case 'mouse_down':
    case 'mouse_up':
    case 'scroll':
    case 'type':
      return step.at ? [step.at] : [];
    case 'move':
      return [step.at];
    case 'drag':
      return [...(step.from ? [step.from] : []), ...step.via, step.to];
    case 'zoom':
      return [step.from, step.to];
    default:
      return [];
  }
}

/** The safety gates a family puts in front of an action: unacknowledged, nothing runs. */
function checkSafety(batch: NativeBatch, req: ActRequest): void {
  const pending = batch.reply.pendingSafetyChecks ?? [];
  const acked = new Set(req.acknowledged_safety_checks ?? []);
  const open = pending.filter((c) => !acked.has(c.id));
  if (open.length > 0) {
    throw new ActionError(
      'SAFETY_CHECK_PENDING',
      `OpenAI flagged this computer_call: ${open.map((c) => `${c.id}${c.code ? ` (${c.code})` : ''}${c.message ? `: ${c.message}` : ''}`).join('; ')}. Nothing was run.`,
      'Ask the user; if they agree, call again with acknowledged_safety_checks: the ids above (they are echoed in the reply).',
      'acknowledged_safety_checks',
      'blocked',
    );
  }
  const d = batch.reply.safetyDecision;
  if (d && d.decision === 'require_confirmation' && !req.safety_acknowledged) {
    throw new ActionError(
      'SAFETY_CONFIRMATION_REQUIRED',
      `Gemini asks for the user's confirmation before this action${d.explanation ? `: ${d.explanation}` : ''}. Nothing was run.`,
      'Ask the user; if they agree, call again with safety_acknowledged: true (the reply then carries safety_acknowledgement).',
      'safety_acknowledged',
      'blocked',
    );
  }
}

/**
 * Executes one native model action, or a batch, as emitted. Every coordinate is read in the family's
 * convention against the frame the model saw, and all of them are checked before anything runs (a drag
 * with one end off the image changes nothing). Each action then goes through the same guarded path as the
 * tools: an action on a point is checked against the frame, so once an earlier action changed the page
 * under a later point, that one is refused, and the rest are not run blind.
 */
export async function runAct(
  session: TrueclickSession,
  req: ActRequest,
  signal?: AbortSignal,
): Promise<ActResult> {
  const batch = parseNativeAction(req.model, req.action);
  checkSafety(batch, req);
  const frame: FrameRecord | undefined = req.frame ? await session.frame(req.frame) : undefined;
  const geometry = frame?.geometry;
  // Every point first: a bad one refuses the whole batch before anything is sent.
  const css = new Map<NativePoint, Point>();
  for (const step of batch.steps) for (const p of pointsOf(step)) css.set(p, resolvePoint(p, req, geometry));
  const result: ActResult = {
    verdict: 'OK',
    family: batch.family,
    model: req.model,
    frame: frame?.id ?? null,
    steps: [],
    ran: 0,
    refused: 0,
    notRun: 0,
    zooms: [],
    batch,
  };
  let expect = req.expect;
  const target = (
    p: NativePoint | undefined,
  ): { frame?: string; x: number; y: number; units: 'css'; expect?: Expect; follow?: boolean } => {
    const at = p ? (css.get(p) as Point) : session.cursor;
    if (!at) {
      throw new ActionError(
        'CURSOR_UNKNOWN',
        'This action acts at the mouse cursor, and trueclick has not moved the mouse yet in this session.',
        'Send the action with its coordinate.',
        'action',
      );
    }
    const t: { frame?: string; x: number; y: number; units: 'css'; expect?: Expect; follow?: boolean } = {
      x: at.x,
      y: at.y,
      units: 'css',
    };
    // A cursor point is where the mouse is now, not a point read off the frame.
    if (frame && p) t.frame = frame.id;
    if (frame && p && req.follow) t.follow = true;
    if (expect && p) {
      t.expect = expect;
      expect = undefined;
    }
    return t;
  };
  let stop: string | null = null;
  let answered = true;
  for (const [index, step] of batch.steps.entries()) {
    // Let the page answer the previous action, so this one is checked against what that one produced.
    if (!answered && stop === null) await settle(await session.driver());
    answered = !SENDS_INPUT.has(step.kind);
    const base = { index, name: step.name, source: step.source, kind: step.kind };
    if (stop !== null || signal?.aborted) {
      result.steps.push({
        ...base,
        status: 'not_run',
        message: `Not run: ${stop ?? 'the call was cancelled'}.`,
      });
      result.notRun++;
      continue;
    }
    let outcome: StepOutcome;
    try {
      outcome = { ...base, ...(await runStep(session, step, target, { req, frame, css, result, signal })) };
    } catch (err) {
      // A press the person must approve first, after actions that already ran: asking would make the client
      // send the whole batch again, and those would run twice. The batch stops there; the press is made on
      // its own (browser_click), where the person is asked. As the first action it is the call's question.
      if (err instanceof ApprovalPending && index > 0) {
        outcome = {
          ...base,
          status: 'refused',
          message: `Not run: this press needs a person's approval (${err.request.reason}). The actions before it ran; take a screenshot and make this press with browser_click, where the person is asked.`,
          error: { code: 'NEEDS_APPROVAL', kind: 'blocked' },
        };
        result.steps.push(outcome);
        result.refused++;
        stop = `action ${index + 1} (${step.name}) waits for a person's approval`;
        continue;
      }
      if (!(err instanceof TrueclickError)) throw err;
      outcome = {
        ...base,
        status: 'refused',
        message: `${err.problem} ${err.hint}`,
        error: { code: err.code, kind: err.kind },
      };
      // A dialog the action met (the mouse reaching its point opened one) freezes the page: say which.
      const dialog = session.dialog;
      if (dialog) result.dialog = dialog;
    }
    result.steps.push(outcome);
    if (outcome.status === 'done') result.ran++;
    if (outcome.status === 'refused') result.refused++;
    if (outcome.status === 'refused' || (outcome.status === 'unsupported' && !HARMLESS.has(step.name)))
      stop = `action ${index + 1} (${step.name}) was ${outcome.status === 'refused' ? 'refused' : 'not possible'}, and the actions after it were planned on a page it did not produce`;
    else if (outcome.verdict && outcome.verdict !== 'OK')
      stop = `action ${index + 1} (${step.name}) ended ${outcome.verdict}: where it landed is not certain`;
    else if (outcome.status === 'finished') stop = `the model said it was done (${step.name})`;
    const effects = outcome.effects;
    if (effects) Object.assign(result, effects);
    if (effects?.dialog) stop ??= 'a dialog is open; answer it with browser_handle_dialog first';
  }
  result.verdict = batchVerdict(result.steps);
  // With a dialog up the page answers nothing, a screenshot included: the dialog comes first.
  if (req.screenshot !== false && !session.dialog) result.screenshot = await session.screenshot();
  return result;
}

/** A batch's verdict: OK when every action ran, else the first one that did not. */
export function batchVerdict(steps: StepOutcome[]): Verdict | ErrorVerdict {
  const bad = steps.find((s) => s.status === 'refused' || (s.verdict && s.verdict !== 'OK'));
  if (bad?.verdict) return bad.verdict;
  if (bad?.error) return ERROR_VERDICTS[bad.error.kind];
  if (steps.some((s) => s.status === 'unsupported' && !HARMLESS.has(s.name))) return 'BAD_INPUT';
  return 'OK';
}
