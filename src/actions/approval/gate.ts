import { release } from '../../browser/identity/guard-end.js';
import type { Attempt, Intent } from '../check/attempt.js';
import { checkPoint } from '../check/pipeline.js';
import type { ActionContext, ClickRequest } from '../check/target.js';
import type { ApprovalRecord, ClickReport } from '../check/verdicts.js';
import { type ApprovalRequest, ageOf, approvalRequest, controlFacts } from './request.js';
import { type ApprovalPolicy, approvalReason } from './rule.js';

/**
 * Raised by an approver that cannot wait inside the call (an MCP client asked in a round of its own): the
 * press is not made now; the call answers with the question.
 */
export class ApprovalPending extends Error {
  constructor(
    readonly request: ApprovalRequest,
    /** Where the person answers instead, when their client cannot ask them itself (the approval page). */
    readonly link?: { route: 'url' | 'page'; url: string; id: string },
  ) {
    super(`approval needed: ${request.sentence}`);
  }
}

/** How the person answered, and by which route (a library callback, an elicitation, the approval page). */
export interface ApprovalAnswer {
  approved: boolean;
  route: string;
  /** When they answered (ms since the epoch), if before the approver returned (a page answered earlier). */
  at?: number;
  /** When they were first asked, if in an earlier call (the approval page). */
  askedAt?: number;
  /**
   * Where the person was shown a followed record (CSS px), when they were asked in an earlier round of the
   * call; null: at the frame's place. Absent: they were asked about this round's check.
   */
  shownMovedTo?: { x: number; y: number } | null;
}

/** Who asks the person, for one session or one call. */
export interface Approver {
  policy: ApprovalPolicy;
  ask(request: ApprovalRequest): Promise<ApprovalAnswer>;
  /**
   * The call already carries the person's answer (an MCP retry): a press the first check refuses is still
   * answered as approved-but-moved, not as if nobody had been asked.
   */
  answered?: boolean;
}

/**
 * A checked press that needs a person's yes: ask, and at the yes run the whole check again against the
 * frame, so what is pressed is what the person was shown, in the world as it is at that moment. Returns
 * the attempt to press, or the answer that presses nothing.
 */
export async function approvalGate(
  ctx: ActionContext,
  req: ClickRequest,
  intent: Intent,
  first: { attempt: Attempt; refusal: ClickReport | null },
  approver: Approver,
): Promise<{ attempt: Attempt; report?: undefined } | { report: ClickReport; attempt?: undefined }> {
  const { attempt: checked, refusal: refusedFirst } = first;
  if (refusedFirst && !approver.answered) return { report: refusedFirst };
  const reason = approvalReason(approver.policy, controlFacts(checked));
  if (!reason) return refusedFirst ? { report: refusedFirst } : { attempt: checked };
  const request = await approvalRequest(checked, reason);
  // The person may take minutes: no guard stays armed on the page meanwhile.
  if (checked.live && !refusedFirst) await release(checked.live);
  const asked = Date.now();
  const answer = await approver.ask(request);
  const answeredAt = answer.at ?? Date.now();
  const frameAge = checked.frame ? answeredAt - checked.frame.capture.capturedAt : null;
  const record: ApprovalRecord = {
    reason,
    route: answer.route,
    approved: answer.approved,
    sentence: request.sentence,
    waitedMs: answeredAt - (answer.askedAt ?? asked),
    frameAgeAtAnswerMs: frameAge,
    answeredAt,
  };
  const after = frameAge !== null ? ` ${ageOf(frameAge)} after frame ${checked.report.frame}` : '';
  if (!answer.approved)
    return {
      report: {
        ...checked.report,
        verdict: 'DECLINED',
        dispatched: null,
        approval: record,
        message: `The person declined${after}: ${request.sentence} Nothing was pressed. Do not retry this press; ask the user what to do instead.`,
      },
    };
  const again = refusedFirst
    ? { attempt: checked, refusal: refusedFirst }
    : await checkPoint(ctx, req, intent);
  again.attempt.report.approval = record;
  const shownTo =
    answer.shownMovedTo !== undefined ? answer.shownMovedTo : (checked.report.followed?.to ?? null);
  const moved = movedSinceShown(shownTo, again.attempt);
  if (!again.refusal && moved) {
    if (again.attempt.live) await release(again.attempt.live);
    return {
      report: {
        ...again.attempt.report,
        verdict: 'STALE_TARGET',
        dispatched: null,
        notFollowed: { record: moved, why: 'it moved after the person was shown where it was' },
        message: `Approved${after}, but the row ${JSON.stringify(moved)} moved after the person was shown it, so nothing was pressed: a yes is for the place they saw. Take a new screenshot and ask again.`,
      },
    };
  }
  if (again.refusal) {
    again.refusal.approval = record;
    again.refusal.message = `Approved${after}, but the page is not what the person was shown, so nothing was pressed: ${again.refusal.message}`;
    return { report: again.refusal };
  }
  return { attempt: again.attempt };
}

/**
 * The record `follow` found at the yes, when that is not the place the person was shown (`shownTo`, where
 * the record had moved to then; null: the frame's place): a yes is for what they saw. Null when it is.
 */
function movedSinceShown(shownTo: { x: number; y: number } | null, now: Attempt): string | null {
  const f = now.report.followed;
  if (!f) return null;
  return shownTo && Math.hypot(shownTo.x - f.to.x, shownTo.y - f.to.y) <= 2 ? null : f.record;
}
