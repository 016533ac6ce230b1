import type { SessionOptions } from '../actions/session/session.js';
import { ExtensionRelay } from '../browser/extension/relay.js';
import { sharedTabs } from '../browser/extension/share.js';
import { defaultPolicy } from '../browser/plumbing/url-policy.js';
import { type ApprovalServing, DEFAULT_APPROVE_TIMEOUT_S } from '../mcp/approval.js';
import { ApprovalPage } from '../mcp/approval-page.js';
import { parseCaps } from '../mcp/caps.js';
import { serveHttp } from '../mcp/http.js';
import { serveStdio } from '../mcp/stdio.js';
import { type BrowserFlags, sessionOptions } from './options.js';
import { handleSignals, onShutdown, shutdown } from './shutdown.js';

export interface ServeFlags extends BrowserFlags {
  http?: number;
  host?: string;
  token?: string;
  shared?: boolean;
  extension?: boolean;
  caps?: string[];
  traceDir?: string;
  traceMaxMb?: number;
  secret?: string[];
  browserPerSession?: boolean;
  maxSessions?: number;
  sessionIdleS?: number;
  instance?: string;
  fleetSecret?: string;
  approve?: string;
  approveWhen?: string;
  approveTimeout?: number;
  approvePort?: number;
}

/** Flags that would change or replace the user's browser, which --extension leaves as it is. */
const EXTENSION_CLASHES = [
  'cdpEndpoint',
  'browserEndpoint',
  'userDataDir',
  'autoConnect',
  'deviceScaleFactor',
  'viewport',
  'storageState',
  'isolated',
  'scaleSource',
  // Enforced by intercepting the browser's requests, which chrome.debugger does not offer an extension.
  'allowedOrigins',
  'blockedOrigins',
] as const;

const MIN_FLEET_SECRET = 16;

/** --approve and --approve-when, checked: which presses the person is asked about first. */
function approvalOptions(flags: ServeFlags): Pick<SessionOptions, 'approvePresses' | 'approveWhen'> {
  const which = flags.approve ?? 'off';
  if (!['off', 'destructive', 'all'].includes(which))
    throw new Error(`--approve takes off, destructive or all, not ${JSON.stringify(which)}.`);
  let when: RegExp | undefined;
  if (flags.approveWhen !== undefined) {
    try {
      when = new RegExp(flags.approveWhen, 'iu');
    } catch (err) {
      throw new Error(`--approve-when is not a regular expression: ${(err as Error).message}`);
    }
  }
  if (which === 'off' && !when) return {};
  return {
    approvePresses: which === 'all' ? 'all' : 'destructive',
    ...(when ? { approveWhen: when } : {}),
  };
}

/**
 * The approval page, started before any browser so that the browser is never let reach it (the URL
 * policy reserves its origin), and how long a call waits on it.
 */
async function approvalServing(flags: ServeFlags, options: SessionOptions): Promise<ApprovalServing> {
  if (!options.approvePresses) {
    const stray =
      flags.approveTimeout !== undefined
        ? '--approve-timeout'
        : flags.approvePort !== undefined
          ? '--approve-port'
          : '';
    if (stray) throw new Error(`${stray} needs --approve destructive or all (or --approve-when).`);
    return {};
  }
  const waitMs = (flags.approveTimeout ?? DEFAULT_APPROVE_TIMEOUT_S) * 1000;
  const page = await ApprovalPage.start(flags.approvePort ?? 0, Math.max(waitMs, 60_000)).catch(
    (err: Error) => {
      throw new Error(
        `The approval page could not listen on 127.0.0.1:${flags.approvePort ?? 0}: ${err.message}`,
      );
    },
  );
  options.urlPolicy = page.reservedBy(options.urlPolicy ?? defaultPolicy());
  process.stderr.write(`trueclick: approval page at ${page.origin} (127.0.0.1 only)\n`);
  return { page, waitMs };
}

const flagName = (f: string) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

export async function serve(flags: ServeFlags): Promise<void> {
  // A stray rejection in one tool call must not take the agent's whole session down; say it on stderr.
  process.on('unhandledRejection', (err) => {
    process.stderr.write(
      `trueclick: unhandled rejection: ${err instanceof Error ? err.stack : String(err)}\n`,
    );
  });
  // One way out from the start (a signal during start-up too), bounded: see src/cli/shutdown.ts.
  handleSignals();
  const options = sessionOptions(flags);
  Object.assign(options, approvalOptions(flags));
  const approval = await approvalServing(flags, options);
  const caps = parseCaps(flags.caps);
  const secrets = [...(flags.secret ?? []), ...(process.env.TRUECLICK_SECRETS ?? '').split(',')].filter(
    Boolean,
  );
  const traced = flags.traceDir
    ? {
        dir: flags.traceDir,
        secrets,
        ...(flags.traceMaxMb ? { maxBytes: flags.traceMaxMb * 1024 * 1024 } : {}),
      }
    : undefined;
  if (flags.extension) {
    const clash = EXTENSION_CLASHES.filter((f) => flags[f] !== undefined).map(flagName);
    if (clash.length)
      throw new Error(
        `--extension acts on the user's own tabs as they are; it cannot take ${clash.join(', ')}.`,
      );
    const relay = await ExtensionRelay.start();
    options.browserSource = () => sharedTabs(relay, options);
    process.stderr.write(
      `trueclick: open ${relay.connectUrl} in your browser (with the trueclick extension) and share a tab.\n`,
    );
  }
  if (flags.http === undefined) {
    const stdio = serveStdio(options, shutdown, caps, traced, approval);
    onShutdown(() => stdio.close());
    return;
  }
  const token = flags.token ?? process.env.TRUECLICK_TOKEN;
  const instance = flags.instance ?? process.env.TRUECLICK_INSTANCE;
  const fleetSecret = flags.fleetSecret ?? process.env.TRUECLICK_FLEET_SECRET;
  // The secret keys the HMAC of every handle: one short enough to guess would let a handle be forged.
  if (fleetSecret !== undefined && fleetSecret.length < MIN_FLEET_SECRET)
    throw new Error(
      `The fleet secret is ${fleetSecret.length} characters; use at least ${MIN_FLEET_SECRET}, e.g. $(openssl rand -hex 32), the same on every server of the fleet.`,
    );
  const host = flags.host ?? '127.0.0.1';
  const server = await serveHttp(options, {
    port: flags.http,
    host,
    shared: Boolean(flags.shared),
    caps,
    ...(traced ? { trace: traced } : {}),
    browserPerSession: Boolean(flags.browserPerSession),
    ...(flags.maxSessions !== undefined ? { maxSessions: flags.maxSessions } : {}),
    ...(flags.sessionIdleS !== undefined ? { sessionIdleS: flags.sessionIdleS } : {}),
    ...(token ? { token } : {}),
    ...(instance ? { instance } : {}),
    ...(fleetSecret ? { fleetSecret } : {}),
    approval,
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : flags.http;
  process.stderr.write(
    `trueclick MCP over streamable HTTP at http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp (instance ${server.instance}${token ? ', bearer token required' : ''})\n`,
  );
  // Every session's context and every browser closes before the process goes: nothing is left behind.
  onShutdown(() => server.shutdown());
}
