import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { TrueclickSession } from '../actions/session/session.js';
import type { Cap } from './caps.js';
import { FIELD_CAPS } from './target-schema.js';

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
  /** The group that brings the tool (default core: on in every run). */
  cap?: Cap;
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

export function annotationsFor(tool: Pick<ToolDefinition, 'type'>): ToolAnnotations {
  const read = tool.type === 'read';
  // The title is the tool's own `title`; repeating it here is paid for on every list.
  return {
    readOnlyHint: read,
    destructiveHint: tool.type === 'input',
    openWorldHint: !read,
  };
}

const shapes = new WeakMap<ToolDefinition, Map<string, z.ZodRawShape>>();

/**
 * The tool's input as this run offers it: fields of groups that are off (FIELD_CAPS) are left out, so the
 * model never reads them and a call naming one is refused like any unknown name. One object per tool and
 * set of groups, so its parser is compiled once.
 */
export function shapeFor(tool: ToolDefinition, caps: ReadonlySet<Cap>): z.ZodRawShape {
  const key = [...caps].sort().join(',');
  let byCaps = shapes.get(tool);
  if (!byCaps) {
    byCaps = new Map();
    shapes.set(tool, byCaps);
  }
  let shape = byCaps.get(key);
  if (!shape) {
    shape = Object.fromEntries(
      Object.entries(tool.inputSchema).filter(([, field]) => {
        const cap = FIELD_CAPS.get(field as z.ZodType);
        return !cap || caps.has(cap);
      }),
    );
    byCaps.set(key, shape);
  }
  return shape;
}

/** Fields the tool has but this run leaves out, each with the group that brings it. */
export function hiddenFields(tool: ToolDefinition, caps: ReadonlySet<Cap>): Record<string, Cap> {
  const shown = shapeFor(tool, caps);
  const hidden: Record<string, Cap> = {};
  for (const [name, field] of Object.entries(tool.inputSchema)) {
    const cap = FIELD_CAPS.get(field as z.ZodType);
    if (cap && !(name in shown)) hidden[name] = cap;
  }
  return hidden;
}
