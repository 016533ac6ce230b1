import { serveStdio as serveBothEras } from '@modelcontextprotocol/server/stdio';
import { type SessionOptions, TrueclickSession } from '../actions/session/session.js';
import { Trace, type TraceOptions } from '../trace/trace.js';
import { type ApprovalServing, approvalOf } from './approval.js';
import type { Cap } from './caps.js';
import { createMcpServer, oneSession } from './server.js';

/**
 * One process, one client, one browser session: no handle is needed in either era. The SDK's entry decides
 * the era from the opening message (initialize for 2025-11-25, an enveloped request for 2026-07-28).
 */
export async function serveStdio(
  options: SessionOptions,
  caps?: ReadonlySet<Cap>,
  trace?: TraceOptions,
  serving: ApprovalServing = {},
): Promise<void> {
  const session = new TrueclickSession(options);
  const source = oneSession(session, trace ? new Trace(trace) : undefined);
  let ending = false;
  const approval = approvalOf(options, undefined, serving);
  const served = serveBothEras(() => createMcpServer(source, caps, approval), {
    // A client that closed our stdout is gone: that is the end of the session, not an error to report.
    onerror: (err) => {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE' || /EPIPE/.test(err.message)) void shutdown();
      else process.stderr.write(`trueclick: ${err.message}\n`);
    },
  });
  const shutdown = async () => {
    if (ending) return;
    ending = true;
    await served.close().catch(() => {});
    await session.close();
    await serving.page?.close().catch(() => {});
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown());
  process.stdin.on('close', () => void shutdown());
  // A client that closed our stdout is gone: writing to it fails with EPIPE; end cleanly, not with a crash.
  process.stdout.on('error', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}
