import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TrueclickSession } from '../actions/session/session.js';
import type { Trace } from '../trace/trace.js';
import { VERSION } from '../version.js';
import { type Cap, DEFAULT_CAPS, enableHint } from './caps.js';
import { observeCall, progressOf } from './observe.js';
import { outcomeShape } from './outcome.js';
import { runTool } from './run-tool.js';
import { annotationsFor, shapeFor, type ToolDefinition } from './tool.js';
import { TOOLS } from './tools/index.js';

/** What the client hands the model once per session: how the tools fit together, for the groups offered. */
function instructions(caps: ReadonlySet<Cap>): string {
  return [
    'Take browser_screenshot, read the point off the image, and pass it with the frame id to browser_click (or type, scroll). x, y are px of that image unless `model` names another convention; trueclick converts them and refuses an action whose target changed since the frame, saying why and what to do next.',
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

/** JSON Schema (draft 7, which the SDK client validates with) of a tool's input and output. */
function schemas(tool: ToolDefinition, caps: ReadonlySet<Cap>): Pick<Tool, 'inputSchema' | 'outputSchema'> {
  const { $schema: _in, ...input } = z.toJSONSchema(z.object(shapeFor(tool, caps)).strict(), {
    target: 'draft-7',
    io: 'input',
  });
  const output = z.toJSONSchema(z.object({ ...outcomeShape, ...tool.outputSchema }), {
    target: 'draft-7',
    io: 'output',
  });
  return {
    inputSchema: input as Tool['inputSchema'],
    outputSchema: outline(output) as NonNullable<Tool['outputSchema']>,
  };
}

/** Each field of a tool's answer with its description, for docs/tools.md (the list gives names only). */
export function answerFields(tool: ToolDefinition): Record<string, { description?: string }> {
  const out = z.toJSONSchema(z.object({ ...outcomeShape, ...tool.outputSchema }), {
    target: 'draft-7',
    io: 'output',
  });
  return (out.properties ?? {}) as Record<string, { description?: string }>;
}

/** The tools a run offers: those of its groups (default: core). */
export function enabledTools(caps: ReadonlySet<Cap> = DEFAULT_CAPS): ToolDefinition[] {
  return TOOLS.filter((t) => caps.has(t.cap ?? 'core'));
}

/** The tool list as MCP's tools/list gives it (also used to generate the README's tool table). */
export function listTools(caps: ReadonlySet<Cap> = DEFAULT_CAPS): Tool[] {
  return enabledTools(caps).map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    ...schemas(tool, caps),
    annotations: annotationsFor(tool),
  }));
}

/**
 * An MCP server over one trueclick session. It is the SDK's low-level Server, as in Playwright MCP, so that
 * trueclick owns argument checking: unknown names and schema errors come back as the same structured
 * refusal as any other (run-tool.ts).
 */
export function createMcpServer(
  session: TrueclickSession,
  caps: ReadonlySet<Cap> = DEFAULT_CAPS,
  opts: { trace?: Trace } = {},
): Server {
  const server = new Server(
    { name: 'trueclick', version: VERSION },
    { capabilities: { tools: {}, logging: {} }, instructions: instructions(caps) },
  );
  const tools = listTools(caps);
  const enabled = enabledTools(caps);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const tool = enabled.find((t) => t.name === name);
    if (!tool) {
      const off = TOOLS.find((t) => t.name === name);
      throw new McpError(
        ErrorCode.InvalidParams,
        off
          ? `${name} is not offered by this server. ${enableHint(off.cap ?? 'core')}`
          : `Unknown tool ${JSON.stringify(name.slice(0, 80))}; the tools are ${enabled.map((t) => t.name).join(', ')}.`,
      );
    }
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const startedAt = Date.now();
    const stop = progressOf(name, args, request.params._meta?.progressToken, extra.sendNotification);
    const result = await runTool(tool, session, request.params.arguments, extra.signal, caps).finally(stop);
    await observeCall(
      {
        server,
        session,
        ...(opts.trace ? { trace: opts.trace } : {}),
        ...(extra.sessionId ? { sessionId: extra.sessionId } : {}),
      },
      name,
      args,
      result,
      startedAt,
    );
    return result;
  });
  return server;
}
