/**
 * The cost of each server's tool list to the model, read through the SDK client as an agent's host reads
 * it (tools/list), for trueclick's default set, each group and all of them, Playwright MCP (default and
 * --caps vision) and chrome-devtools-mcp (default). No browser starts: listing tools does not need one.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CAP_NAMES } from '../src/mcp/caps.js';
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

async function listed(
  server: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ToolListRow[]> {
  const mcp = await startMcp(server, process.execPath, args, { env });
  try {
    return rowsOf(server, (await mcp.client.listTools()).tools);
  } finally {
    await mcp.close();
  }
}

/** What a 2026-07-28 client over HTTP reads: every tool with its `session` handle argument. */
async function listedWithHandles(server: string, caps: string): Promise<ToolListRow[]> {
  const srv = await spawnServer(await freePort(), ['--caps', caps]);
  const client = newClient('2026-07-28', 'trueclick-bench');
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.endpoint)));
    return rowsOf(server, (await client.listTools()).tools);
  } finally {
    await client.close().catch(() => {});
    await srv.stop();
  }
}

export async function measureTokens(): Promise<Section> {
  const out = emptySection();
  const rows: ToolListRow[] = [];
  for (const cap of ['core', ...CAP_NAMES.filter((c) => c !== 'core'), 'all'])
    rows.push(...(await listed(`trueclick --caps ${cap}`, [CLI, 'serve', '--caps', cap])));
  for (const cap of ['core', 'all'])
    rows.push(...(await listedWithHandles(`trueclick --caps ${cap}, HTTP 2026-07-28 (handles)`, cap)));
  const pw = [PLAYWRIGHT_MCP, '--headless', '--isolated', '--executable-path', CHROMIUM];
  rows.push(...(await listed('Playwright MCP', pw)));
  rows.push(...(await listed('Playwright MCP --caps vision', [...pw, '--caps', 'vision'])));
  rows.push(
    ...(await listed(
      'chrome-devtools-mcp',
      [DEVTOOLS_MCP, '--headless', '--isolated', '--executablePath', CHROMIUM, '--no-usage-statistics'],
      { CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1' },
    )),
  );
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
