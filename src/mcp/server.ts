import {
  type CallToolResult,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ApprovalPending } from '../actions/approval/gate.js';
import { approvalScope } from '../actions/approval/scope.js';
import type { TrueclickSession } from '../actions/session/session.js';
import { TrueclickError } from '../geometry/index.js';
import type { Trace } from '../trace/trace.js';
import { VERSION } from '../version.js';
import {
  askPerson,
  callApprover,
  clientCapabilities,
  type McpApproval,
  needsApproval,
  spendAnswer,
} from './approval.js';
import { type Cap, DEFAULT_CAPS, enableHint } from './caps.js';
import { SESSION_HEADER, START_AGAIN } from './handles.js';
import { observeCall, progressOf, traceparentOf } from './observe.js';
import { outcomeShape } from './outcome.js';
import { errorResult } from './response.js';
import { runTool } from './run-tool.js';
import { annotationsFor, shapeFor, type ToolDefinition } from './tool.js';
import { TOOLS } from './tools/index.js';

/** The browser session one call acts on, and what the call owes it. */
export interface BoundSession {
  session: TrueclickSession;
  trace?: Trace;
  /** The handle of a session this call started: it goes back in the answer. */
  minted?: string;
  /** The call ended (the session is idle again from now on). */
  done?(): void;
  /** The call that started the session failed: it ends, and no handle goes back. */
  abandon?(): void;
}

/**
 * Where a call's browser session comes from. A stdio client, and a 2025-11-25 HTTP session, is one session
 * for all its calls; a 2026-07-28 client over HTTP names it by a handle in every call (`handles`).
 */
export interface SessionSource {
  readonly handles: boolean;
  bind(tool: string, handle: string | undefined, ctx: ServerContext): Promise<BoundSession>;
}

export const oneSession = (session: TrueclickSession, trace?: Trace): SessionSource => ({
  handles: false,
  bind: async () => ({ session, ...(trace ? { trace } : {}) }),
});

/** What the client hands the model once: how the tools fit together, for the groups offered. */
function instructions(caps: ReadonlySet<Cap>, handles: boolean): string {
  return [
    'Take browser_screenshot, read the point off the image, and pass it with the frame id to browser_click (or type, scroll). x, y are px of that image unless `model` names another convention; trueclick converts them and refuses an action whose target changed since the frame, saying why and what to do next.',
    handles
      ? 'browser_navigate without `session` starts a browser session and returns its handle: pass it as `session` on every later call.'
      : '',
    caps.has('native')
      ? 'A computer-use model’s own action (Claude, OpenAI, Gemini, UI-TARS, Qwen) can be passed as it is to browser_act.'
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * An output schema for clients to check answers against, not for the model: the fields every answer has
 * (verdict, message) with their types, the tool's other fields by name only. The full record is documented
 * once, in docs/tools.md; repeating it in every tool made tools/list 3.6 times what the model reads.
 */
function outline(schema: Record<string, unknown>): Record<string, unknown> {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (schema.required ?? []) as string[];
  const keep = (name: string, p: Record<string, unknown>) =>
    required.includes(name)
      ? Object.fromEntries(['type', 'enum'].filter((k) => k in p).map((k) => [k, p[k]]))
      : {};
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(props).map(([k, p]) => [k, keep(k, p)])),
    required,
  };
}

/**
 * The `session` argument of every tool when sessions are named by handle. `x-mcp-header` makes the client
 * mirror it into Mcp-Param-Session (SEP-2243), which a proxy routes on. Only navigate says what it is (the
 * words are paid on every step): the answer that mints a handle, and every refusal without one, say the rest.
 */
const sessionProperty = (tool: string) => ({
  type: 'string' as const,
  ...(tool === 'browser_navigate' ? { description: 'Omit to start a browser session.' } : {}),
  'x-mcp-header': SESSION_HEADER,
});

/** JSON Schema (2020-12, MCP's default dialect) of a tool's input and output. */
function schemas(
  tool: ToolDefinition,
  caps: ReadonlySet<Cap>,
  handles: boolean,
): Pick<Tool, 'inputSchema' | 'outputSchema'> {
  const { $schema: _in, ...input } = z.toJSONSchema(z.object(shapeFor(tool, caps)).strict(), {
    io: 'input',
  });
  if (handles) input.properties = { ...input.properties, session: sessionProperty(tool.name) };
  const output = z.toJSONSchema(z.object({ ...outcomeShape, ...tool.outputSchema }), { io: 'output' });
  return {
    inputSchema: input as Tool['inputSchema'],
    outputSchema: outline(output) as NonNullable<Tool['outputSchema']>,
  };
}

/** Each field of a tool's answer with its description, for docs/tools.md (the list gives names only). */
export function answerFields(tool: ToolDefinition): Record<string, { description?: string }> {
  const out = z.toJSONSchema(z.object({ ...outcomeShape, ...tool.outputSchema }), { io: 'output' });
  return (out.properties ?? {}) as Record<string, { description?: string }>;
}

/** The tools a run offers: those of its groups (default: core). */
export function enabledTools(caps: ReadonlySet<Cap> = DEFAULT_CAPS): ToolDefinition[] {
  return TOOLS.filter((t) => caps.has(t.cap ?? 'core'));
}

/**
 * The tool list as MCP's tools/list gives it (also used to generate the README's tool table), in one fixed
 * order; with `handles`, every tool takes the `session` handle.
 */
export function listTools(caps: ReadonlySet<Cap> = DEFAULT_CAPS, handles = false): Tool[] {
  return enabledTools(caps).map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    ...schemas(tool, caps, handles),
    annotations: annotationsFor(tool),
  }));
}

/** A tool list does not change while a server runs, and is the same for every caller. */
const TOOLS_CACHE = { ttlMs: 3_600_000, cacheScope: 'public' } as const;

const lists = new Map<string, Tool[]>();
function toolsOf(caps: ReadonlySet<Cap>, handles: boolean): Tool[] {
  const key = `${[...caps].sort().join(',')}|${handles}`;
  let tools = lists.get(key);
  if (!tools) {
    tools = listTools(caps, handles);
    lists.set(key, tools);
  }
  return tools;
}

/** The handle of a session this call started, first in the answer the agent reads. */
function withMinted(result: CallToolResult, handle: string): CallToolResult {
  const line = `session: ${handle} (pass it as \`session\` on every later call)`;
  const text = result.content.find((c) => c.type === 'text');
  if (text && text.type === 'text') text.text = `${line}\n${text.text}`;
  else result.content.unshift({ type: 'text', text: line });
  result.structuredContent = { ...(result.structuredContent ?? {}), session: handle };
  return result;
}

/** The trace's record of a call that put its press to the person through the client. */
function askedRecord({ request, link }: ApprovalPending): CallToolResult {
  const route = link ? 'URL elicitation' : 'form elicitation';
  return {
    content: [],
    structuredContent: {
      verdict: 'NEEDS_APPROVAL',
      message: `Asked the person (${route}): ${request.sentence}`,
      frame: request.frame,
      point: request.point,
      imagePoint: request.imagePoint,
      approval: { asked: true, route, reason: request.reason, sentence: request.sentence },
    },
  };
}

/**
 * An MCP server whose calls act on the sessions `source` binds. It is the SDK's low-level Server, as in
 * Playwright MCP, so that trueclick owns argument checking: unknown names and schema errors come back as the
 * same structured refusal as any other (run-tool.ts). One is built per stdio connection, per 2025-11-25
 * HTTP session, and per 2026-07-28 HTTP request; the tool list is built once.
 */
export function createMcpServer(
  source: SessionSource,
  caps: ReadonlySet<Cap> = DEFAULT_CAPS,
  approval?: McpApproval,
): Server {
  const server = new Server(
    { name: 'trueclick', version: VERSION },
    {
      capabilities: { tools: {}, logging: {} },
      instructions: instructions(caps, source.handles),
      cacheHints: { 'tools/list': TOOLS_CACHE },
      // A requestState that fails its HMAC, its binding or its time is refused before the handler runs.
      ...(approval
        ? { requestState: { verify: (s: string, c: ServerContext) => approval.codec.verify(s, c) } }
        : {}),
    },
  );
  const tools = toolsOf(caps, source.handles);
  const enabled = enabledTools(caps);
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const name = request.params.name;
    const tool = enabled.find((t) => t.name === name);
    if (!tool) {
      const off = TOOLS.find((t) => t.name === name);
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        off
          ? `${name} is not offered by this server. ${enableHint(off.cap ?? 'core')}`
          : `Unknown tool ${JSON.stringify(name.slice(0, 80))}; the tools are ${enabled.map((t) => t.name).join(', ')}.`,
      );
    }
    const raw = request.params.arguments;
    let args = (raw ?? {}) as Record<string, unknown>;
    let handle: string | undefined;
    if (source.handles && raw && typeof raw === 'object' && 'session' in raw) {
      const { session, ...rest } = raw as Record<string, unknown>;
      if (typeof session !== 'string')
        return errorResult(
          new TrueclickError(
            'BAD_HANDLE',
            'session must be the string browser_navigate returned.',
            START_AGAIN,
            'session',
          ),
          tool.undone,
        );
      handle = session;
      args = rest;
    }
    let bound: BoundSession;
    try {
      if (approval) spendAnswer(approval, ctx);
      bound = await source.bind(name, handle, ctx);
    } catch (err) {
      return errorResult(err, tool.undone, tool.refusalShape);
    }
    const startedAt = Date.now();
    const meta = request.params._meta as Record<string, unknown> | undefined;
    const progress = progressOf(name, args, request.params._meta?.progressToken, (n) => ctx.mcpReq.notify(n));
    const approver = approval
      ? callApprover(approval, ctx, {
          tool: name,
          session: bound.session,
          client: clientCapabilities(ctx, server.getClientCapabilities()),
          progress: progress.status,
        })
      : undefined;
    const observe = (result: CallToolResult) =>
      observeCall(
        {
          session: bound.session,
          log: (level, data) => ctx.mcpReq.log(level, data, 'trueclick'),
          ...(bound.trace ? { trace: bound.trace } : {}),
          ...(traceparentOf(meta) ? { traceparent: traceparentOf(meta) } : {}),
          ...(approver?.asked?.crop ? { approvalCrop: approver.asked.crop.base64 } : {}),
        },
        name,
        args,
        result,
        startedAt,
      );
    try {
      const run = () => runTool(tool, bound.session, args, ctx.mcpReq.signal, caps);
      let result: CallToolResult;
      try {
        result = await (approver ? approvalScope.run(approver, run) : run()).finally(progress.stop);
      } catch (err) {
        if (!approval || !(err instanceof ApprovalPending)) throw err;
        // The person is asked: by the client (input_required), or by the page the answer links to.
        if (err.link?.route === 'page') result = needsApproval(approval, err, tool.undone);
        else {
          await observe(askedRecord(err));
          return askPerson(approval, ctx, name, err);
        }
      }
      await observe(result);
      if (!bound.minted) return result;
      if (result.isError) {
        bound.abandon?.();
        return result;
      }
      return withMinted(result, bound.minted);
    } finally {
      bound.done?.();
    }
  });
  return server;
}
