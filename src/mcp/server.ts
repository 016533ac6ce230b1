import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { TrueclickSession } from '../actions/session.js';
import { VERSION } from '../version.js';
import { TOOLS } from './tools/index.js';

/** One queue per session: with --shared several MCP servers (clients) act on the same page. */
const queues = new WeakMap<TrueclickSession, Promise<unknown>>();

/**
 * An MCP server over one trueclick session. Tool calls run one at a time: a click must not interleave with a
 * screenshot of the same page.
 */
export function createMcpServer(session: TrueclickSession): McpServer {
  const server = new McpServer(
    { name: 'trueclick', version: VERSION },
    {
      instructions:
        'Take browser_screenshot, read the point off the image, and pass it to browser_click with the frame id. Coordinates are pixels of that image unless you say otherwise; trueclick converts them and refuses clicks whose target changed.',
    },
  );
  for (const tool of TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
      },
      (args: Record<string, unknown>) => {
        const run = (queues.get(session) ?? Promise.resolve()).then(() => tool.handle(session, args));
        queues.set(
          session,
          run.catch(() => {}),
        );
        return run;
      },
    );
  }
  return server;
}
