import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { TrueclickSession } from '../actions/session.js';
import { VERSION } from '../version.js';
import { outcomeShape } from './outcome.js';
import { runTool } from './run-tool.js';
import { annotationsFor, type ToolDefinition } from './tool.js';
import { TOOLS } from './tools/index.js';

const INSTRUCTIONS =
  'Take browser_screenshot, read the point off the image, and pass it to browser_click (or hover, drag, type, select, upload) with the frame id. Coordinates are pixels of that image unless you say otherwise; trueclick converts them and refuses actions whose target changed. A computer-use model’s own action (Claude, OpenAI, Gemini, UI-TARS, Qwen) can be passed as it is to browser_act.';

/** JSON Schema (draft 7, which the SDK client validates with) of a tool's input and output. */
function schemas(tool: ToolDefinition): Pick<Tool, 'inputSchema' | 'outputSchema'> {
  const input = z.toJSONSchema(z.object(tool.inputSchema).strict(), { target: 'draft-7', io: 'input' });
  const output = z.toJSONSchema(z.object({ ...outcomeShape, ...tool.outputSchema }), {
    target: 'draft-7',
    io: 'output',
  });
  return {
    inputSchema: input as Tool['inputSchema'],
    outputSchema: output as NonNullable<Tool['outputSchema']>,
  };
}

/** The tool list as MCP's tools/list gives it (also used to generate the README's tool table). */
export function listTools(): Tool[] {
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    ...schemas(tool),
    annotations: annotationsFor(tool),
  }));
}

/**
 * An MCP server over one trueclick session. It is the SDK's low-level Server, as in Playwright MCP, so that
 * trueclick owns argument checking: unknown names and schema errors come back as the same structured
 * refusal as any other (run-tool.ts).
 */
export function createMcpServer(session: TrueclickSession): Server {
  const server = new Server(
    { name: 'trueclick', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const tools = listTools();
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = TOOLS.find((t) => t.name === request.params.name);
    if (!tool) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(request.params.name.slice(0, 80))}; the tools are ${TOOLS.map((t) => t.name).join(', ')}.`,
      );
    }
    return runTool(tool, session, request.params.arguments, extra.signal);
  });
  return server;
}
