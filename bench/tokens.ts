/**
 * The cost of each server's tool list to the model, read through the SDK client as an agent's host reads
 * it (tools/list), for trueclick's default set, each group and all of them, Playwright MCP (default and
 * --caps vision) and chrome-devtools-mcp (default). No browser starts: listing tools does not need one.
 *
 * Each list is a function of the server's tool definitions and the SDK that sends them, so it is kept in
 * bench/results/ (git-ignored) under that key: trueclick's under a hash of the definitions its server lists
 * (listTools, for those flags) and the SDK's version, a peer's under its package version and flags. A run
 * reads a kept list instead of starting that server again (a dozen node processes, minutes on a busy 2-core
 * machine); a change to any tool's name, words or schema, or another SDK or peer, starts it again. The
 * servers a run does start go two at a time.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CAP_NAMES, parseCaps } from '../src/mcp/caps.js';
import { listTools } from '../src/mcp/server.js';
import { newClient } from '../test/helpers/mcp-client.js';
import { CHROMIUM } from './cdp.js';
import { freePort, spawnServer } from './fleet.js';
import { startMcp } from './mcp.js';
import { emptySection, type Section, type ToolListRow } from './results.js';
import { costOf } from './tool-tokens.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CLI = join(ROOT, 'dist/src/cli/main.js');
const PLAYWRIGHT_MCP = join(ROOT, 'node_modules/@playwright/mcp/cli.js');
const DEVTOOLS_MCP = join(ROOT, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js');
/** Playwright MCP's default set, the budget trueclick's default set is held to (test/mcp/caps.test.ts). */
const BUDGET = 3_700;
const CACHE = join(ROOT, 'bench/results/tool-lists.json');
/** Servers listed at once (beside the other count sections: more at once and one may not start in 60 s). */
const AT_ONCE = 2;

type Tools = Awaited<ReturnType<Client['listTools']>>['tools'];

function rowsOf(server: string, tools: Tools): ToolListRow[] {
  const c = costOf(tools);
  return [
    {
      server,
      tools: c.tools,
      modelChars: c.model.chars,
      modelTokens: c.model.tokens,
      wholeChars: c.whole.chars,
      wholeTokens: c.whole.tokens,
    },
    ...c.perTool.map((t) => ({
      server,
      tool: t.name,
      tools: 1,
      modelChars: t.chars,
      modelTokens: t.tokens,
    })),
  ];
}

async function listed(server: string, args: string[], env: Record<string, string> = {}): Promise<Tools> {
  const mcp = await startMcp(server, process.execPath, args, { env });
  try {
    return (await mcp.client.listTools()).tools;
  } finally {
    await mcp.close();
  }
}

/** What a 2026-07-28 client over HTTP reads: every tool with its `session` handle argument. */
async function listedWithHandles(caps: string): Promise<Tools> {
  // As long as the SDK gives a stdio server to answer its initialize: at load 18 on two cores, 20 s was not.
  const srv = await spawnServer(await freePort(), ['--caps', caps], {}, 60_000);
  const client = newClient('2026-07-28', 'trueclick-bench');
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.endpoint)));
    return (await client.listTools()).tools;
  } finally {
    await client.close().catch(() => {});
    await srv.stop();
  }
}

/** The definitions a trueclick server started with these flags lists (its tools/list handler calls listTools). */
function definitionsHash(caps: string, handles: boolean): string {
  const tools = listTools(parseCaps([caps]), handles);
  return createHash('sha256').update(JSON.stringify(tools)).digest('hex').slice(0, 16);
}

const versionOf = (pkgDir: string) =>
  (
    JSON.parse(readFileSync(join(ROOT, 'node_modules', pkgDir, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

type Cache = Record<string, { at: string; tools: Tools }>;
function readCache(): Cache {
  try {
    return existsSync(CACHE) ? (JSON.parse(readFileSync(CACHE, 'utf8')) as Cache) : {};
  } catch {
    return {};
  }
}

/** Runs fns at most n at a time, every one of them even when one fails; their results in order. */
async function pool<T>(fns: Array<() => Promise<T>>, n: number): Promise<T[]> {
  const out: T[] = new Array(fns.length);
  const failed: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, fns.length) }, async () => {
      for (let i = next++; i < fns.length; i = next++)
        out[i] = await (fns[i] as () => Promise<T>)().catch((err: unknown) => {
          failed.push(err);
          return undefined as T;
        });
    }),
  );
  if (failed.length > 0) throw failed[0];
  return out;
}

export async function measureTokens(log: (msg: string) => void = () => {}): Promise<Section> {
  const out = emptySection();
  const sdk = `@modelcontextprotocol/server ${versionOf('@modelcontextprotocol/server')}`;
  const pwVersion = `@playwright/mcp ${versionOf('@playwright/mcp')}`;
  const dtVersion = `chrome-devtools-mcp ${versionOf('chrome-devtools-mcp')}`;
  const pw = [PLAYWRIGHT_MCP, '--headless', '--isolated', '--executable-path', CHROMIUM];
  const dt = [
    DEVTOOLS_MCP,
    '--headless',
    '--isolated',
    '--executablePath',
    CHROMIUM,
    '--no-usage-statistics',
  ];
  // server name, the cache key (definitions or version, and flags), how to list it
  const plan: Array<[string, string, () => Promise<Tools>]> = [
    ...['core', ...CAP_NAMES.filter((c) => c !== 'core'), 'all'].map(
      (cap) =>
        [
          `trueclick --caps ${cap}`,
          `tools ${definitionsHash(cap, false)}, ${sdk}, stdio`,
          () => listed(`trueclick --caps ${cap}`, [CLI, 'serve', '--caps', cap]),
        ] as [string, string, () => Promise<Tools>],
    ),
    ...['core', 'all'].map(
      (cap) =>
        [
          `trueclick --caps ${cap}, HTTP 2026-07-28 (handles)`,
          `tools ${definitionsHash(cap, true)}, ${sdk}, http 2026-07-28`,
          () => listedWithHandles(cap),
        ] as [string, string, () => Promise<Tools>],
    ),
    ['Playwright MCP', pwVersion, () => listed('Playwright MCP', pw)],
    [
      'Playwright MCP --caps vision',
      `${pwVersion} --caps vision`,
      () => listed('Playwright MCP --caps vision', [...pw, '--caps', 'vision']),
    ],
    [
      'chrome-devtools-mcp',
      dtVersion,
      () => listed('chrome-devtools-mcp', dt, { CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' }),
    ],
  ];
  const cache = readCache();
  const kept = plan.filter(([, key]) => cache[key]).length;
  log(
    `tokens: ${kept} of ${plan.length} tool lists kept from an earlier run (the same definitions and SDK, or peer version, and flags); starting ${plan.length - kept} servers, ${AT_ONCE} at a time`,
  );
  // Only this plan's lists are kept (older definitions' would never be read again), and every list a run
  // got is kept even when another failed: the next run starts only what is missing.
  const save = () => {
    const keep: Cache = {};
    for (const [, key] of plan) if (cache[key]) keep[key] = cache[key];
    try {
      mkdirSync(dirname(CACHE), { recursive: true });
      writeFileSync(CACHE, `${JSON.stringify(keep)}\n`);
    } catch {
      // A cache that cannot be written costs the next run its time, nothing else.
    }
  };
  const lists = await pool(
    plan.map(([, key, list]) => async () => {
      const hit = cache[key];
      if (hit) return hit.tools;
      // A server that did not answer its initialize in time on a busy machine is started once more.
      const tools = await list().catch((err: Error) => {
        log(`tokens: ${key}: ${err.message.split('\n')[0]}; once more`);
        return list();
      });
      cache[key] = { at: new Date().toISOString(), tools };
      return tools;
    }),
    AT_ONCE,
  ).finally(save);
  const rows: ToolListRow[] = plan.flatMap(([server], i) => rowsOf(server, lists[i] as Tools));
  out.lists = rows;
  const core = rows.find((r) => r.server === 'trueclick --caps core' && !r.tool);
  const handles = rows.find((r) => r.server.startsWith('trueclick --caps core, HTTP') && !r.tool);
  const pwTotal = rows.find((r) => r.server === 'Playwright MCP' && !r.tool);
  if (core) {
    out.checks.push({
      key: 'tokens.default',
      thing: 'tool definitions of the default set, tokens the model reads',
      measured: `${core.modelTokens} tokens${pwTotal ? ` (${(core.modelTokens / pwTotal.modelTokens).toFixed(2)}× Playwright MCP)` : ''}`,
      value: core.modelTokens,
      target: `≤ ${BUDGET}`,
      met: core.modelTokens <= BUDGET,
    });
    if (handles)
      out.checks.push({
        key: 'tokens.handles',
        thing:
          'the default set as a 2026-07-28 client over HTTP reads it (a session argument), against stdio',
        measured: `${handles.modelTokens} tokens (${((handles.modelTokens / core.modelTokens - 1) * 100).toFixed(1)} % more)`,
        value: handles.modelTokens / core.modelTokens,
        target: '≤ 1.10×',
        met: handles.modelTokens <= 1.1 * core.modelTokens,
      });
    out.checks.push({
      key: 'tokens.whole',
      thing: 'the whole tools/list of the default set, against what the model reads',
      measured: `${((core.wholeTokens ?? 0) / core.modelTokens).toFixed(2)}×`,
      value: (core.wholeTokens ?? 0) / core.modelTokens,
      target: '≤ 2×',
      met: (core.wholeTokens ?? 0) <= 2 * core.modelTokens,
    });
  }
  return out;
}
