import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { CLI, type HttpServerHandle, startHttpServer } from '../helpers/mcp-client.js';

// The MCP Inspector CLI (1.x, --cli mode; 2.x needs Node 22) as a second, independent client.
const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const INSPECTOR = `${ROOT}node_modules/@modelcontextprotocol/inspector-cli/build/cli.js`;
// inspector-cli 1.0.3 looks for its package.json with fs.existsSync("../package.json") relative to the working
// directory but imports it relative to itself; from a folder one below the repo root both resolve.
const CWD = `${ROOT}dist`;

let srv: FixtureServer;
let server: HttpServerHandle;
let endpoint = '';

async function inspector(args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...args], {
    cwd: CWD,
    timeout: 60_000,
  });
  return JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, unknown>;
}

before(async () => {
  srv = await startFixtureServer();
  server = await startHttpServer([
    '--shared',
    '--device-scale-factor',
    '1.65',
    '--viewport',
    '2327x1156',
    '--max-image-edge',
    '0',
  ]);
  endpoint = server.endpoint;
});
after(async () => {
  await server?.stop();
  await srv?.close();
});

describe('MCP Inspector CLI', () => {
  test('lists the tools over stdio', async () => {
    const out = await inspector(['node', CLI, 'serve', '--method', 'tools/list']);
    const names = (out.tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(names.includes('browser_click') && names.includes('browser_screenshot'), names.join(','));
  });

  test('lists the tools over HTTP, and screenshots over stdio', async () => {
    const listed = await inspector([endpoint, '--transport', 'http', '--method', 'tools/list']);
    const names = (listed.tools as Array<{ name: string }>).map((t) => t.name);
    assert.ok(names.includes('browser_click') && names.includes('browser_act'), names.join(','));
    // Over stdio each Inspector call starts a server of its own: one call, one screenshot of a blank tab.
    const shot = await inspector([
      'node',
      CLI,
      'serve',
      '--method',
      'tools/call',
      '--tool-name',
      'browser_screenshot',
    ]);
    const frame = (shot.structuredContent as { frame: { id: string; image: { width: number } } }).frame;
    assert.equal(frame.id, 'f1');
    assert.ok(frame.image.width > 0);
  });

  test('clicks the checkbox fixture by frame at devicePixelRatio 1.65 (2327 px viewport) over HTTP', async () => {
    const http = [endpoint, '--transport', 'http'];
    await inspector([
      ...http,
      '--method',
      'tools/call',
      '--tool-name',
      'browser_navigate',
      '--tool-arg',
      `url=${srv.url('/checkboxes', { w: 2327, run: 'inspector' })}`,
    ]);
    const shot = await inspector([...http, '--method', 'tools/call', '--tool-name', 'browser_screenshot']);
    const frame = (
      shot.structuredContent as {
        frame: { id: string; image: { width: number; height: number }; devicePixelRatio: number };
      }
    ).frame;
    assert.equal(frame.devicePixelRatio, 1.65);
    assert.deepEqual(frame.image, { width: 3840, height: 1907 });
    // #cb1's centre (1396.5, 698.5) CSS is at these pixels of the 3840-wide image.
    const x = (1396.5 * 3840) / 2327;
    const y = (698.5 * 1907) / 1156;
    const click = await inspector([
      ...http,
      '--method',
      'tools/call',
      '--tool-name',
      'browser_click',
      '--tool-arg',
      `frame=${frame.id}`,
      `x=${x.toFixed(2)}`,
      `y=${y.toFixed(2)}`,
    ]);
    const s = click.structuredContent as { verdict: string; landed: { id: string } };
    assert.equal(s.verdict, 'OK', JSON.stringify(click));
    assert.equal(s.landed.id, 'cb1');
    assert.equal((await srv.waitForHits(1, { run: 'inspector', type: 'click' }))[0]?.id, 'cb1');
  });
});

describe('MCP Inspector CLI, a client without elicitation, with --approve destructive', () => {
  let gated: HttpServerHandle;
  before(async () => {
    gated = await startHttpServer(['--shared', '--device-scale-factor', '2', '--approve', 'destructive']);
  });
  after(async () => {
    await gated?.stop();
  });

  test('Delete is answered NEEDS_APPROVAL with the link; the retry waits for the person, who approves on the page', async () => {
    const http = [gated.endpoint, '--transport', 'http', '--method', 'tools/call'];
    const call = (tool: string, ...args: string[]) =>
      inspector([...http, '--tool-name', tool, ...(args.length ? ['--tool-arg', ...args] : [])]);
    await call('browser_navigate', `url=${srv.url('/rw/list', { run: 'inspector-approve' })}`);
    const shot = await call('browser_screenshot');
    const frame = (shot.structuredContent as { frame: { id: string; image: { width: number } } }).frame;
    // TCK-7741's Delete on /rw/list at 1280×800 CSS px, DPR 2: CSS (1180, 343.5), at these px of the image.
    const k = frame.image.width / 1280;
    const click = [`frame=${frame.id}`, `x=${(1180 * k).toFixed(1)}`, `y=${(343.5 * k).toFixed(1)}`];
    const first = await call('browser_click', ...click);
    const s = first.structuredContent as { error: { code: string }; approval: { url: string } };
    assert.equal(s.error.code, 'NEEDS_APPROVAL', JSON.stringify(first));
    assert.deepEqual(srv.actions({ run: 'inspector-approve' }), []);
    const person = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
      const waiting = call('browser_click', ...click);
      const page = await person.newPage();
      await page.goto(s.approval.url);
      await page.click('#approve');
      const r = (await waiting).structuredContent as { verdict: string; approval: { route: string } };
      assert.equal(r.verdict, 'OK', JSON.stringify(r));
      assert.equal(r.approval.route, 'approval page');
    } finally {
      await person.close();
    }
    const done = await srv.waitForActions(1, { run: 'inspector-approve' });
    assert.deepEqual(
      done.map((a) => [a.method, a.do, a.id]),
      [['POST', 'delete', 'TCK-7741']],
    );
  });
});
