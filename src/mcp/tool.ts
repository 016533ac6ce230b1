import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { TrueclickSession } from '../actions/session.js';

/** What every handler gets beside its arguments: the client's cancellation. */
export interface ToolContext {
  signal: AbortSignal;
}

/**
 * What a tool touches, from which its annotations follow (as Playwright MCP derives them from `type`):
 * `read` looks only; `input` acts on the page; `navigation` moves a tab or opens and closes tabs.
 */
export type ToolType = 'read' | 'input' | 'navigation';

/**
 * One tool: a schema whose descriptions name every unit, an output schema for its structuredContent, and a
 * handler over the session. The handler only does its own work: the wrapper (run-tool.ts) checks the
 * arguments, queues the call, turns every throw into the one refusal shape and adds notices.
 */
export interface ToolDefinition<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  type: ToolType;
  inputSchema: Shape;
  /** The tool's own structuredContent fields (beside verdict, message, error, notice, dialog, tab). */
  outputSchema: z.ZodRawShape;
  /** What a refusal says was left undone, e.g. "Nothing was clicked." */
  undone: string;
  /** Fields a refusal carries so that it reads like every other answer of the tool (e.g. dispatched: null). */
  refusalShape?: Record<string, unknown>;
  handle(
    session: TrueclickSession,
    args: z.infer<z.ZodObject<Shape>>,
    ctx: ToolContext,
  ): Promise<CallToolResult>;
}

export function defineTool<Shape extends z.ZodRawShape>(def: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return def;
}

export function annotationsFor(tool: Pick<ToolDefinition, 'title' | 'type'>): ToolAnnotations {
  const read = tool.type === 'read';
  return {
    title: tool.title,
    readOnlyHint: read,
    destructiveHint: tool.type === 'input',
    openWorldHint: !read,
  };
}
