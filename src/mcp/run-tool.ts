import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApprovalPending } from '../actions/approval/gate.js';
import type { TrueclickSession } from '../actions/session/session.js';
import { TrueclickError } from '../geometry/index.js';
import { checkArguments } from './arguments.js';
import { ALL_CAPS, type Cap } from './caps.js';
import { errorResult } from './response.js';
import { hiddenFields, shapeFor, type ToolDefinition } from './tool.js';

/** One queue per session: with --shared several MCP servers (clients) act on the same page. */
const queues = new WeakMap<TrueclickSession, Promise<unknown>>();

/**
 * Calls run one at a time per session: a click must not interleave with a screenshot of the same page. A call
 * the client cancelled while it waited is skipped; one cancelled while it runs is told through its signal,
 * and the calls behind it run once it stops.
 */
function queued<T>(session: TrueclickSession, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(session) ?? Promise.resolve()).then(() => {
    if (signal.aborted) throw cancelled();
    return work();
  });
  queues.set(
    session,
    run.catch(() => {}),
  );
  return run;
}

export function cancelled(): TrueclickError {
  return new TrueclickError(
    'CANCELLED',
    'The client cancelled this call.',
    'Take a screenshot to see what state the page is in before you go on.',
    undefined,
    'bad_input',
  );
}

/** Says once what happened apart from this call (the browser was restarted), first in the answer. */
function withNotice(session: TrueclickSession, result: CallToolResult): CallToolResult {
  const notice = session.takeNotice();
  if (!notice) return result;
  const text = result.content.find((c) => c.type === 'text');
  if (text && text.type === 'text') text.text = `${notice}\n${text.text}`;
  else result.content.unshift({ type: 'text', text: notice });
  if (result.structuredContent) result.structuredContent = { ...result.structuredContent, notice };
  return result;
}

/**
 * Every tool call goes through here (as chrome-devtools-mcp's ToolHandler and Playwright's callTool): the
 * arguments are checked by name and schema, the call is queued, any throw becomes the one refusal shape
 * (a page dialog refuses the tools that cannot act under it: the session says so), and notices are added.
 */
export async function runTool(
  tool: ToolDefinition,
  session: TrueclickSession,
  raw: unknown,
  signal: AbortSignal,
  caps: ReadonlySet<Cap> = ALL_CAPS,
): Promise<CallToolResult> {
  let args: Record<string, unknown> = {};
  try {
    args = checkArguments(tool.name, raw, shapeFor(tool, caps), hiddenFields(tool, caps), tool.description);
    const result = await queued(session, signal, () => tool.handle(session, args, { signal }));
    return withNotice(session, result);
  } catch (err) {
    // The person is asked first: the call answers input_required, not an error.
    if (err instanceof ApprovalPending) throw err;
    const frame = typeof args.frame === 'string' ? { frame: args.frame } : {};
    // A refusal under a dialog (one the call's hover opened, or one still waiting) names it, as an OK does.
    const dialog = session.dialog;
    const told = await session.explain(err);
    return withNotice(
      session,
      errorResult(told, tool.undone, { ...tool.refusalShape, ...frame, ...(dialog ? { dialog } : {}) }),
    );
  }
}
