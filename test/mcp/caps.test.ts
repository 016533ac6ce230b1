// What the model reads on every step: the default tool set within Playwright MCP's budget, the groups that
// add the rest, and a call on a group that is off told which group brings it (nothing run).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { costOf, groupCosts } from '../../bench/tool-tokens.js';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { CAP_COSTS } from '../../src/mcp/cap-costs.js';
import { ALL_CAPS, DEFAULT_CAPS } from '../../src/mcp/caps.js';
import { listTools } from '../../src/mcp/server.js';
import { CLI, type McpHarness, startStdio, structured, text } from '../helpers/mcp-client.js';

/** Playwright MCP's default set, measured the same way (bench: npm run bench -- --only tokens). */
const BUDGET = 3_700;

describe('the tool list’s cost', () => {
  test('the default set reads in at most 3,700 tokens; the whole list is at most twice that', () => {
    const core = costOf(listTools(DEFAULT_CAPS));
    assert.ok(core.model.tokens <= BUDGET, `default set: ${core.model.tokens} tokens`);
    assert.ok(core.whole.tokens <= 2 * core.model.tokens, `whole list ${core.whole.tokens} tokens`);
    const all = costOf(listTools(ALL_CAPS));
    assert.ok(all.whole.tokens <= 2 * all.model.tokens, `all groups: whole list ${all.whole.tokens} tokens`);
  });

  test('serve --help states each group’s cost as counted now (npm run readme regenerates it)', () => {
    assert.deepEqual(CAP_COSTS, groupCosts(), 'src/mcp/cap-costs.ts is stale: run npm run readme');
  });

  test('an unknown group is refused by name, listing the groups', () => {
    const r = spawnSync(process.execPath, [CLI, 'serve', '--caps', 'pointer,gestures'], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown capability "gestures": the groups are core, pointer, forms/);
  });
});

describe('the default set over stdio', () => {
  let srv: FixtureServer;
  let mcp: McpHarness;
  before(async () => {
    srv = await startFixtureServer();
    mcp = await startStdio(['--caps', 'core']);
  });
  after(async () => {
    await mcp?.close();
    await srv?.close();
  });

  test('lists the core tools only, without the fields of other groups', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'browser_click',
      'browser_handle_dialog',
      'browser_navigate',
      'browser_press_key',
      'browser_screenshot',
      'browser_scroll',
      'browser_tabs',
      'browser_type',
      'browser_wait_for',
    ]);
    const click = tools.find((t) => t.name === 'browser_click');
    const props = Object.keys(click?.inputSchema.properties ?? {});
    for (const k of ['frame', 'x', 'y', 'box', 'model', 'model_output', 'expect'])
      assert.ok(props.includes(k), k);
    for (const k of ['mark', 'units', 'shown_width']) assert.ok(!props.includes(k), `${k} is not in core`);
  });

  test('a tool or a field of a group that is off: refused, naming the group and the flag; nothing done', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'caps' }) });
    const hover = await mcp.client
      .callTool({ name: 'browser_hover', arguments: { x: 1, y: 1 } })
      .then((r) => text(r as Parameters<typeof text>[0]))
      .catch((e: Error) => e.message);
    assert.match(
      hover,
      /browser_hover is not offered by this server\. It is in the "pointer" group.*--caps pointer/,
    );
    const units = await mcp.call('browser_click', { x: 1102, y: 636, units: 'css' });
    assert.ok(units.isError);
    assert.match(text(units), /"units" is not offered by this server.*"convention" group.*--caps convention/);
    const marks = await mcp.call('browser_screenshot', { marks: true });
    assert.match(text(marks), /--caps marks/);
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(srv.hits({ run: 'caps', type: 'click' }), [], 'nothing was clicked');
  });

  test('browser_navigate takes go: back, forward, reload; a url and go together are refused', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'go-1' }) });
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'go-2' }) });
    const back = await mcp.call('browser_navigate', { go: 'back' });
    assert.match(structured<{ url: string }>(back).url, /run=go-1/);
    const both = await mcp.call('browser_navigate', { url: srv.url('/approve'), go: 'reload' });
    assert.ok(both.isError);
    assert.match(text(both), /takes a url or go, not both/);
    const neither = await mcp.call('browser_navigate', {});
    assert.match(text(neither), /and got neither/);
  });
});
