import { createHash, randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import {
  type ApprovalAnswer,
  ApprovalPending as ApprovalNeeded,
  type Approver,
} from '../actions/approval/gate.js';
import type { ApprovalRequest } from '../actions/approval/request.js';
import type { ApprovalPolicy } from '../actions/approval/rule.js';
import type { SessionOptions } from '../actions/session/session.js';
import { TrueclickError } from '../geometry/index.js';
import { callerOf } from './handles.js';

// The approval gate over MCP (`serve --approve`): the press is put to the person as a form-mode elicitation
// in the multi-round-trip pattern. A 2026-07-28 client gets `input_required` and retries the call with the
// person's answer; for a 2025-11-25 client the SDK's legacy shim sends `elicitation/create` inside the call
// and runs the handler again with the answer, so both eras take this one path. The retry runs the whole
// check again: what is pressed is what the person was shown, as the page is at the yes.

/** What the requestState carries between the rounds: the press the person was asked about. */
interface Asked {
  /** Single use: a replayed yes presses nothing. */
  nonce: string;
  tool: string;
  frame: string | null;
  imagePoint: { x: number; y: number } | null;
  /** The control as the person was shown it. */
  control: { nodeId: number; name: string; context: string };
  sentence: string;
}

export interface McpApproval {
  policy: ApprovalPolicy;
  codec: RequestStateCodec<Asked>;
  /** Nonces of approvals already used, with when they expire (ms). */
  spent: Map<string, number>;
}

/** How long a person has to answer before the question must be asked again (s). */
const ANSWER_TTL_S = 300;
const KEY = 'approve';
const SCHEMA = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve this press' } },
  required: ['approve'],
};

/** Raised inside a call whose press needs a person and has no answer yet: the call answers input_required. */
export { ApprovalPending as ApprovalNeeded } from '../actions/approval/gate.js';

/** The gate of `serve --approve`: none unless the options name presses to ask about. */
export function approvalOf(options: SessionOptions, secret?: string): McpApproval | undefined {
  if (!options.approvePresses) return undefined;
  const { approvePresses: presses, approveWhen: when } = options;
  return mcpApproval({ presses, ...(when ? { when } : {}) }, secret);
}

export function mcpApproval(policy: ApprovalPolicy, secret?: string): McpApproval {
  // The codec wants 32 bytes; the fleet's secret (shared by every server of it) may be shorter text.
  const key = createHash('sha256')
    .update(`trueclick approval\0${secret ?? randomBytes(32).toString('hex')}`)
    .digest();
  return {
    policy,
    codec: createRequestStateCodec<Asked>({
      key,
      ttlSeconds: ANSWER_TTL_S,
      // Bound to the caller's token and the tool: another caller's yes, or a yes for another tool, fails.
      bind: (ctx) => `${callerOf(ctx.http?.authInfo?.token)}\0${ctx.mcpReq.method}`,
    }),
    spent: new Map(),
  };
}

/** The approver of one tools/call: asks on the first round, answers from the person's reply on the retry. */
export function callApprover(a: McpApproval, ctx: ServerContext, tool: string): Approver {
  return {
    policy: a.policy,
    answered: ctx.mcpReq.requestState() !== undefined,
    ask: async (request): Promise<ApprovalAnswer> => {
      const asked = ctx.mcpReq.requestState<Asked>();
      if (!asked || typeof asked !== 'object') throw new ApprovalNeeded(request);
      if (asked.tool !== tool || !samePress(asked, request))
        throw new TrueclickError(
          'APPROVAL_MISMATCH',
          `This approval was for another press (${asked.sentence}), not for ${request.sentence}`,
          'Retry the call exactly as it was asked, or make the new call without the approval.',
          'requestState',
        );
      const reply = inputResponse(ctx.mcpReq.inputResponses, KEY);
      const yes = reply.kind === 'elicit' && reply.action === 'accept' && reply.content?.approve === true;
      return { approved: yes, route: 'elicitation' };
    },
  };
}

/** The input_required answer: the person is asked about the press, with the state of what they were shown. */
export async function askPerson(
  a: McpApproval,
  ctx: ServerContext,
  tool: string,
  { request }: ApprovalNeeded,
): Promise<InputRequiredResult> {
  const asked: Asked = {
    nonce: randomBytes(12).toString('base64url'),
    tool,
    frame: request.frame,
    imagePoint: request.imagePoint,
    control: {
      nodeId: request.control.nodeId,
      name: request.control.name,
      context: request.control.context ?? '',
    },
    sentence: request.sentence,
  };
  return inputRequired({
    inputRequests: {
      [KEY]: inputRequired.elicit({
        message: `An agent asks to ${request.sentence[0]?.toLowerCase()}${request.sentence.slice(1)} Why this asks: ${request.reason}. At your yes trueclick checks the page again and presses nothing if it changed.`,
        requestedSchema: SCHEMA,
      }),
    },
    requestState: await a.codec.mint(asked, ctx),
  });
}

function samePress(asked: Asked, r: ApprovalRequest): boolean {
  return (
    asked.frame === r.frame &&
    asked.imagePoint?.x === r.imagePoint?.x &&
    asked.imagePoint?.y === r.imagePoint?.y &&
    asked.control.nodeId === r.control.nodeId &&
    asked.control.name === r.control.name &&
    asked.control.context === (r.control.context ?? '')
  );
}

/**
 * A retry that carries the person's answer uses it up before anything runs: a replayed yes is refused
 * whatever the page does meanwhile (the spec's single use, enforced here, not by the client).
 */
export function spendAnswer(a: McpApproval, ctx: ServerContext): void {
  const asked = ctx.mcpReq.requestState<Asked>();
  if (asked && typeof asked === 'object' && typeof asked.nonce === 'string') spend(a, asked.nonce);
}

function spend(a: McpApproval, nonce: string): void {
  const now = Date.now();
  for (const [n, until] of a.spent) if (until < now) a.spent.delete(n);
  if (a.spent.has(nonce))
    throw new TrueclickError(
      'APPROVAL_USED',
      'This approval was already used: a yes presses once.',
      'Make the call again without it; the person is asked again.',
      'requestState',
    );
  a.spent.set(nonce, now + ANSWER_TTL_S * 1000);
}
