import { serveHttp } from '../mcp/http.js';
import { serveStdio } from '../mcp/stdio.js';
import { type BrowserFlags, sessionOptions } from './options.js';

export interface ServeFlags extends BrowserFlags {
  http?: number;
  host?: string;
  token?: string;
  shared?: boolean;
}

export async function serve(flags: ServeFlags): Promise<void> {
  // A stray rejection in one tool call must not take the agent's whole session down; say it on stderr.
  process.on('unhandledRejection', (err) => {
    process.stderr.write(
      `trueclick: unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
  });
  const options = sessionOptions(flags);
  if (flags.http === undefined) return serveStdio(options);
  const token = flags.token ?? process.env.TRUECLICK_TOKEN;
  const host = flags.host ?? '127.0.0.1';
  const server = await serveHttp(options, {
    port: flags.http,
    host,
    shared: Boolean(flags.shared),
    ...(token ? { token } : {}),
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : flags.http;
  process.stderr.write(
    `trueclick MCP over streamable HTTP at http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp${token ? ' (bearer token required)' : ''}\n`,
  );
  const stop = () => {
    // Idle keep-alive connections would hold close() open; the browsers close with the server.
    server.close(() => process.exit(0));
    server.closeAllConnections();
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
