import { createHash, randomBytes } from 'node:crypto';
import {
  type CallToolResult,
  type ClientCapabilities,
  createRequestStateCodec,
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { type ApprovalAnswer, ApprovalPending, type Approver } from '../actions/approval/gate.js';
import { type ApprovalRequest, sameRegion } from '../actions/approval/request.js';
import type { ApprovalPolicy } from '../actions/approval/rule.js';
import type { SessionOptions, TrueclickSession } from '../actions/session/session.js';
import { TrueclickError } from '../geometry/index.js';
import type { ApprovalPage, PendingApproval } from './approval-page.js';
import { callerOf } from './handles.js';
import { errorResult } from './response.js';

// The approval gate over MCP (`serve --approve`). The press is put to the person by the route the client has:
// - form elicitation: the text of the press, in the multi-round-trip pattern. A 2026-07-28 client gets
//   `input_required` and retries the call with the person's answer; for a 2025-11-25 client the SDK's legacy
//   shim sends `elicitation/create` inside the call and runs the handler again with the answer, so both eras
//   take this one path;
// - URL elicitation: the same pattern with a link to the local approval page (the crop then and now); the
//   retry waits for the press of Approve or Deny there;
// - no elicitation: the answer is NEEDS_APPROVAL with the link (and a line on stderr); the agent's retry of
//   the same call waits for the person's decision.
// Whatever the route, at the answer the whole check runs again: what is pressed is what the person was
// shown, as the page is at the yes.

/** What the requestState carries between the rounds: the press the person was asked about. */
interface Asked {
  /** Single use: a replayed yes presses nothing. */
  nonce: string;
  route: Route;
  /** When the person was asked (ms since the epoch): how long they took is counted from it. */
  askedAt: number;
  /** The approval page's question (URL route). */
  pending?: string;
  tool: string;
  frame: string | null;
  imagePoint: { x: number; y: number } | null;
  /** The control as the person was shown it. */
  control: { nodeId: number; name: string; context: string };
  sentence: string;
  /** `follow`: where the person was shown the record had moved to (CSS px); null: where the frame showed it. */
  movedTo?: { x: number; y: number } | null;
}

type Route = 'form' | 'url' | 'page';

export interface McpApproval {
  policy: ApprovalPolicy;
  codec: RequestStateCodec<Asked>;
  /** Nonces of approvals already used, with when they expire (ms). */
  spent: Map<string, number>;
  /** The local approval page, for clients without form elicitation. */
  page?: ApprovalPage;
  /** How long a call waits for the person's answer on the page, ms (`--approve-timeout`). */
  waitMs: number;
}

/** What a call of the approver knows beyond the request: whose session, what the client can show. */
export interface CallFacts {
  tool: string;
  session: TrueclickSession;
  client: ClientCapabilities | undefined;
  /** Says on the call's progress stream what it waits for. */
  progress?: (message: string, total?: number) => void;
}

export const DEFAULT_APPROVE_TIMEOUT_S = 300;

/** How long a person has to answer before the question must be asked again (s). */
const ANSWER_TTL_S = 300;
const KEY = 'approve';
const SCHEMA = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean' as const, title: 'Approve this press' } },
  required: ['approve'],
};

/** What `serve --approve` adds to the session options: the page and how long a call waits on it. */
export interface ApprovalServing {
  page?: ApprovalPage;
  waitMs?: number;
}

/** The gate of `serve --approve`: none unless the options name presses to ask about. */
export function approvalOf(
  options: SessionOptions,
  secret?: string,
  serving: ApprovalServing = {},
): McpApproval | undefined {
  if (!options.approvePresses) return undefined;
  const { approvePresses: presses, approveWhen: when } = options;
  return mcpApproval({ presses, ...(when ? { when } : {}) }, secret, serving);
}

export function mcpApproval(
  policy: ApprovalPolicy,
  secret?: string,
  serving: ApprovalServing = {},
): McpApproval {
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
    ...(serving.page ? { page: serving.page } : {}),
    waitMs: serving.waitMs ?? DEFAULT_APPROVE_TIMEOUT_S * 1000,
  };
}

/** The client's capabilities for this call: the request's envelope (2026-07-28), else its initialize. */
export const clientCapabilities = (
  ctx: ServerContext,
  initialized: ClientCapabilities | undefined,
): ClientCapabilities | undefined =>
  ((ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[
    'io.modelcontextprotocol/clientCapabilities'
  ] as ClientCapabilities | undefined) ?? initialized;

/** How this client can show the person the press: a bare `elicitation: {}` is form (the pre-mode rule). */
function routeOf(client: ClientCapabilities | undefined, page: boolean): Route | null {
  const e = client?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (e && (e.form || !e.url)) return 'form';
  if (!page) return null;
  return e?.url ? 'url' : 'page';
}

const sessionIds = new WeakMap<TrueclickSession, string>();
/** One press of one session: a retry of the same call names the same question on the page. */
function pressKey(session: TrueclickSession, tool: string, r: ApprovalRequest): string {
  let id = sessionIds.get(session);
  if (!id) {
    id = randomBytes(6).toString('hex');
    sessionIds.set(session, id);
  }
  const p = r.imagePoint ?? r.point;
  return [id, tool, r.frame, p?.x, p?.y, r.control.nodeId, r.control.name].join('|');
}

/**
 * The approver of one tools/call: asks on the first round, answers from the person's reply on the retry (or
 * from the approval page, waiting for it). `asked` keeps the request put to the person, for the trace.
 */
export function callApprover(
  a: McpApproval,
  ctx: ServerContext,
  call: CallFacts,
): Approver & { asked?: ApprovalRequest } {
  const approver: Approver & { asked?: ApprovalRequest } = {
    policy: a.policy,
    answered: ctx.mcpReq.requestState() !== undefined,
    ask: async (request): Promise<ApprovalAnswer> => {
      approver.asked = request;
      const asked = ctx.mcpReq.requestState<Asked>();
      if (asked && typeof asked === 'object') return answerOf(a, ctx, call, asked, request);
      const route = routeOf(call.client, Boolean(a.page));
      if (route === 'form' || !a.page || !route) throw new ApprovalPending(request);
      const key = pressKey(call.session, call.tool, request);
      // The agent's retry of a call that was answered NEEDS_APPROVAL: wait for the person's decision.
      const open = route === 'page' ? a.page.find(key) : undefined;
      if (open) return waitOnPage(a, open, call, ctx.mcpReq.signal);
      const pending = a.page.open(key, request, nowOf(call.session, request));
      throw new ApprovalPending(request, { route, url: a.page.urlOf(pending), id: pending.id });
    },
  };
  return approver;
}

/** The retry of a call that asked: the person's answer from the elicitation, or from the page it linked. */
async function answerOf(
  a: McpApproval,
  ctx: ServerContext,
  call: CallFacts,
  asked: Asked,
  request: ApprovalRequest,
): Promise<ApprovalAnswer> {
  if (asked.tool !== call.tool || !samePress(asked, request))
    throw new TrueclickError(
      'APPROVAL_MISMATCH',
      `This approval was for another press (${asked.sentence}), not for ${request.sentence}`,
      'Retry the call exactly as it was asked, or make the new call without the approval.',
      'requestState',
    );
  const reply = inputResponse(ctx.mcpReq.inputResponses, KEY);
  const accepted = reply.kind === 'elicit' && reply.action === 'accept';
  if (asked.route !== 'url')
    return {
      approved: accepted && reply.content?.approve === true,
      route: 'elicitation',
      shownMovedTo: asked.movedTo ?? null,
      ...(typeof asked.askedAt === 'number' ? { askedAt: asked.askedAt } : {}),
    };
  // URL mode: accepting only means the person went to the page; the answer is given there.
  const pending = asked.pending ? a.page?.byId(asked.pending) : undefined;
  if (!accepted) return { approved: false, route: 'approval page (not opened)' };
  if (!pending)
    throw new TrueclickError(
      'APPROVAL_EXPIRED',
      'The approval page for this press has expired; nothing was pressed.',
      'Take a new screenshot and make the press again; the person is asked again.',
      undefined,
      'timeout',
    );
  return waitOnPage(a, pending, call, ctx.mcpReq.signal);
}

/** Waits for Approve or Deny on the page, saying on the progress stream what it waits for. */
async function waitOnPage(
  a: McpApproval,
  p: PendingApproval,
  call: CallFacts,
  signal: AbortSignal,
): Promise<ApprovalAnswer> {
  const page = a.page as ApprovalPage;
  const seconds = Math.round(a.waitMs / 1000);
  call.progress?.(`waiting for the person's answer at ${page.urlOf(p)} (up to ${seconds} s)`, seconds);
  const d = await page.decision(p, a.waitMs, signal);
  if (!d)
    throw new TrueclickError(
      'APPROVAL_TIMEOUT',
      `Nobody answered on the approval page within ${seconds} s; nothing was pressed.`,
      `The question stays open at ${page.urlOf(p)}: make the same call again to wait for the answer, or ask the user.`,
      undefined,
      'timeout',
    );
  return {
    approved: d.approved,
    route: 'approval page',
    at: d.at,
    askedAt: p.askedAt,
    shownMovedTo: p.request.movedTo?.css ?? null,
  };
}

/** The same region of the page as it is now, for the person to compare with the frame. */
function nowOf(session: TrueclickSession, r: ApprovalRequest): PendingApproval['now'] {
  return async () => {
    const at = r.movedTo?.image ?? r.imagePoint;
    if (!r.crop || !at) return undefined;
    const now = await session.lookNow();
    return sameRegion(r.crop, at, now.base64);
  };
}

/** Said to the agent whose client cannot show the person a question: the link, and to call again. */
export function needsApproval(a: McpApproval, err: ApprovalPending, undone: string): CallToolResult {
  const url = err.link?.url ?? '';
  const seconds = Math.round(a.waitMs / 1000);
  process.stderr.write(`trueclick: a person must approve: ${err.request.sentence} Open ${url}\n`);
  const result = errorResult(
    new TrueclickError(
      'NEEDS_APPROVAL',
      `This press needs a person's approval (${err.request.reason}): ${err.request.sentence} Nothing was pressed.`,
      `Show the user ${url} , then make the same call again: it waits up to ${seconds} s for their answer.`,
      undefined,
      'blocked',
    ),
    undone,
  );
  result.structuredContent = {
    ...(result.structuredContent ?? {}),
    approval: {
      asked: true,
      route: 'approval page',
      url,
      reason: err.request.reason,
      sentence: err.request.sentence,
    },
  };
  return result;
}

/** The input_required answer: the person is asked about the press, with the state of what they were shown. */
export async function askPerson(
  a: McpApproval,
  ctx: ServerContext,
  tool: string,
  { request, link }: ApprovalPending,
): Promise<InputRequiredResult> {
  const asked: Asked = {
    nonce: randomBytes(12).toString('base64url'),
    route: link ? 'url' : 'form',
    askedAt: Date.now(),
    ...(link ? { pending: link.id } : {}),
    tool,
    frame: request.frame,
    imagePoint: request.imagePoint,
    control: {
      nodeId: request.control.nodeId,
      name: request.control.name,
      context: request.control.context ?? '',
    },
    sentence: request.sentence,
    movedTo: request.movedTo?.css ?? null,
  };
  const message = `An agent asks to ${request.sentence[0]?.toLowerCase()}${request.sentence.slice(1)} Why this asks: ${request.reason}.`;
  return inputRequired({
    inputRequests: {
      [KEY]: link
        ? inputRequired.elicitUrl({
            message: `${message} Open the page to see the frame and the page now, and approve or deny there.`,
            url: link.url,
          })
        : inputRequired.elicit({
            message: `${message} At your yes trueclick checks the page again and presses nothing if it changed.`,
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
