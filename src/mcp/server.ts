import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type SessionOptions, TrueclickSession } from '../actions/session.js';
import { VERSION } from '../version.js';
import { TOOLS } from './tools/index.js';

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
  let queue: Promise<unknown> = Promise.resolve();
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
        const run = queue.then(() => tool.handle(session, args));
        queue = run.catch(() => {});
        return run;
      },
    );
  }
  return server;
}

export function newSession(options: SessionOptions): TrueclickSession {
  return new TrueclickSession(options);
}
