import type { CallToolResult, LoggingLevel, Notification } from '@modelcontextprotocol/server';
import type { TrueclickSession } from '../actions/session/session.js';
import { type Trace, typedIntoPassword } from '../trace/trace.js';

/** Verdicts that are an answer, not news: everything else is a refusal or an error the client may log. */
const QUIET = new Set(['OK']);
const ERRORS = new Set(['BAD_INPUT', 'BROWSER_GONE', 'SESSION_GONE', 'TIMEOUT', 'INTERNAL_ERROR']);
const REFUSALS = new Set(['STALE_TARGET', 'COVERED', 'MISSED_TARGET', 'LANDED_ELSEWHERE', 'FRAME_MISMATCH']);

type Send = (n: Notification) => Promise<void>;

/** A client log line for this call, on its own stream (2026-07-28: only at the level the request asked for). */
export type LogLine = (level: LoggingLevel, data: Record<string, unknown>) => Promise<void>;

/** W3C trace context: the only shape written into a trace from a client's `_meta.traceparent`. */
const TRACEPARENT = /^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

export const traceparentOf = (meta: Record<string, unknown> | undefined): string | undefined => {
  const t = meta?.traceparent;
  return typeof t === 'string' && TRACEPARENT.test(t) ? t : undefined;
};

/** A call's heartbeat: stop it when the call ends; `status` says what the call now waits for. */
export interface Progress {
  stop(): void;
  status(message: string, total?: number): void;
}

/**
 * A heartbeat for a call the client asked progress of (it sent a progressToken): one notification a
 * second while it runs, so a long wait, a long text being typed, a batch of actions or a person's answer
 * is seen to move.
 */
export function progressOf(
  tool: string,
  args: Record<string, unknown>,
  token: string | number | undefined,
  send: Send,
): Progress {
  if (token === undefined) return { stop: () => {}, status: () => {} };
  const started = Date.now();
  const seconds = Number(args.seconds ?? args.timeout ?? 0);
  let total = tool === 'browser_wait_for' ? seconds || 10 : undefined;
  let what: string | undefined;
  const timer = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    void send({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress: s,
        ...(total ? { total } : {}),
        message: what ? `${tool}: ${what}, ${s} s` : `${tool} running for ${s} s`,
      },
    }).catch(() => {});
  }, 1000);
  return {
    stop: () => clearInterval(timer),
    status: (message, t) => {
      what = message;
      // The total counts from the call's start, as the progress does.
      if (t !== undefined) total = Math.round((Date.now() - started) / 1000) + t;
    },
  };
}

/** After a call: the trace gets its record, and the client's log a line for a refusal, an error or a notice. */
export async function observeCall(
  o: {
    session: TrueclickSession;
    log: LogLine;
    trace?: Trace;
    traceparent?: string;
    /** What the person was shown of the press (PNG, base64), when it asked one. */
    approvalCrop?: string;
  },
  tool: string,
  args: Record<string, unknown>,
  result: CallToolResult,
  startedAt: number,
): Promise<void> {
  const s = (result.structuredContent ?? {}) as {
    verdict?: string;
    message?: string;
    notice?: string;
    navigation?: unknown;
    submitted?: boolean;
    approval?: unknown;
  };
  if (o.trace) {
    const password = await typedIntoPassword(tool, s, () => o.session.focusIsPassword());
    // A refusal, and a press a person answered, are shown beside what the page holds now: one more image,
    // taken only while tracing.
    const now =
      (s.verdict && REFUSALS.has(s.verdict)) || s.approval
        ? await o.session.lookNow().catch(() => undefined)
        : undefined;
    try {
      const image = (result.content.find((c) => c.type === 'image') as { data: string } | undefined)?.data;
      o.trace.record({
        tool,
        args,
        answer: (result.structuredContent ?? {}) as Record<string, unknown>,
        ...(image ? { image } : {}),
        startedAt,
        typedIntoPassword: password,
        ...(o.traceparent ? { traceparent: o.traceparent } : {}),
        ...(now ? { now } : {}),
        ...(o.approvalCrop ? { approvalCrop: o.approvalCrop } : {}),
      });
    } catch (err) {
      process.stderr.write(`trueclick: the trace could not be written: ${(err as Error).message}\n`);
    }
  }
  const log = (level: LoggingLevel, data: Record<string, unknown>) => o.log(level, data).catch(() => {});
  if (s.notice) await log('notice', { event: s.notice });
  if (s.verdict && !QUIET.has(s.verdict))
    await log(ERRORS.has(s.verdict) ? 'error' : 'warning', { tool, verdict: s.verdict, message: s.message });
}
