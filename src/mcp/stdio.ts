import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type SessionOptions, TrueclickSession } from '../actions/session/session.js';
import { Trace, type TraceOptions } from '../trace/trace.js';
import type { Cap } from './caps.js';
import { createMcpServer } from './server.js';

export async function serveStdio(
  options: SessionOptions,
  caps?: ReadonlySet<Cap>,
  trace?: TraceOptions,
): Promise<void> {
  const session = new TrueclickSession(options);
  const server = createMcpServer(session, caps, trace ? { trace: new Trace(trace) } : {});
  const transport = new StdioServerTransport();
  const shutdown = async () => {
    await session.close();
    process.exit(0);
  };
  transport.onclose = () => void shutdown();
  process.stdin.on('end', () => void shutdown());
  // A client that closed our stdout is gone: writing to it fails with EPIPE; end cleanly, not with a crash.
  process.stdout.on('error', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  await server.connect(transport);
}
