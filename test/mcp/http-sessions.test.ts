import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { type HttpServerHandle, startHttpServer } from '../helpers/mcp-client.js';

// Many agents on one server over streamable HTTP: each MCP session an isolated context on one shared
// Chromium, a cap on sessions, idle sessions closed, bad requests refused with their codes while the server
// serves on, and a shutdown that leaves no browser behind.

let srv: FixtureServer;
before(async () => {
  srv = await startFixtureServer();
});
after(async () => {
  await srv?.close();
});

async function connect(endpoint: string): Promise<Client> {
  const client = new Client({ name: 'http-sessions', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint)));
  return client;
}

/** Ends a session as a polite client does: DELETE, then close. */
async function end(c: Client): Promise<void> {
  await (c.transport as StreamableHTTPClientTransport).terminateSession().catch(() => {});
  await c.close();
}

const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: args })) as CallToolResult;
const sc = <T>(r: CallToolResult) => r.structuredContent as T;

/** The Chromium processes a server process started (its direct children). */
function browsersOf(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => /chrom/.test(l))
      .map((l) => Number(l.trim().split(/\s+/)[0]));
  } catch {
    return [];
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function rawPost(endpoint: string, body: string, headers: Record<string, string> = {}) {
  const r = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await r.text();
  let json: { error?: { code: number; message: string } } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // An accepted initialize answers as an event stream.
  }
  return { status: r.status, session: r.headers.get('mcp-session-id'), text, json };
}

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

describe('sessions over streamable HTTP', () => {
  let server: HttpServerHandle;
  before(async () => {
    server = await startHttpServer(['--device-scale-factor', '2', '--max-sessions', '2']);
  });
  after(async () => {
    await server?.stop();
  });

  test('two sessions are two isolated contexts on one Chromium: their pages, frames and tabs do not cross', async () => {
    const [a, b] = await Promise.all([connect(server.endpoint), connect(server.endpoint)]);
    try {
      await call(a, 'browser_navigate', { url: srv.url('/approve', { run: 'sess-a' }) });
      await call(b, 'browser_navigate', { url: srv.url('/approve', { run: 'sess-b' }) });
      const fa = sc<{ frame: { id: string; image: { width: number } } }>(
        await call(a, 'browser_screenshot'),
      ).frame;
      const k = fa.image.width / 1280;
      const clicked = await call(a, 'browser_click', { frame: fa.id, x: 1102 * k, y: 636 * k });
      assert.equal(sc<{ verdict: string }>(clicked).verdict, 'OK');
      // B took no screenshot: A's frame id means nothing in B's session.
      const foreign = await call(b, 'browser_click', { frame: fa.id, x: 1102 * k, y: 636 * k });
      assert.equal(sc<{ error: { code: string } }>(foreign).error.code, 'UNKNOWN_FRAME');
      await srv.waitForHits(1, { run: 'sess-a', type: 'click' });
      assert.equal(srv.hits({ run: 'sess-b', type: 'click' }).length, 0, 'nothing reached B’s page');
      const tabs = async (c: Client) =>
        sc<{ tabs: Array<{ url: string }> }>(await call(c, 'browser_tabs', { action: 'list' })).tabs.map(
          (t) => t.url,
        );
      assert.deepEqual(
        (await tabs(a)).map((u) => new URL(u).searchParams.get('run')),
        ['sess-a'],
      );
      assert.deepEqual(
        (await tabs(b)).map((u) => new URL(u).searchParams.get('run')),
        ['sess-b'],
      );
      assert.equal(browsersOf(server.pid).length, 1, 'one Chromium serves both sessions');

      // The cap: a third session is refused by name, and the two open ones go on.
      const third = await rawPost(server.endpoint, INITIALIZE);
      assert.equal(third.status, 503);
      assert.match(third.json.error?.message ?? '', /2 sessions are open.*--max-sessions 2/);
      assert.ok(!(await call(b, 'browser_screenshot')).isError);
    } finally {
      await Promise.all([a, b].map((c) => end(c)));
    }
  });

  test('a dialog raised in one session and a tab opened in another, at once, stay in the session that raised them', async () => {
    const [a, b] = await Promise.all([connect(server.endpoint), connect(server.endpoint)]);
    try {
      await Promise.all([
        call(a, 'browser_navigate', { url: srv.url('/rw/dialogs', { run: 'dlg-a' }) }),
        call(b, 'browser_navigate', { url: srv.url('/rw/tabs', { run: 'tab-b' }) }),
      ]);
      type Shot = { frame: { id: string; image: { width: number } } };
      const [fa, fb] = (
        await Promise.all([call(a, 'browser_screenshot'), call(b, 'browser_screenshot')])
      ).map((r) => sc<Shot>(r).frame);
      type Effects = {
        verdict: string;
        message: string;
        dialog?: { type: string };
        newTab?: { url: string };
      };
      // "Delete TCK-7741" (a confirm) on A's page and "Open in new tab" on B's sit at the same CSS point.
      const at = (f: Shot['frame']) => ({
        frame: f.id,
        x: 652 * (f.image.width / 1280),
        y: 108 * (f.image.width / 1280),
      });
      const [ra, rb] = (
        await Promise.all([
          call(a, 'browser_click', at(fa as Shot['frame'])),
          call(b, 'browser_click', at(fb as Shot['frame'])),
        ])
      ).map((r) => sc<Effects>(r));
      assert.equal(ra?.dialog?.type, 'confirm', ra?.message);
      assert.equal(ra?.newTab, undefined);
      assert.match(rb?.newTab?.url ?? '', /do=open-tab/, rb?.message);
      assert.equal(rb?.dialog, undefined);
      // B has no dialog to answer, and A's tab list did not grow.
      const none = sc<{ error: { code: string } }>(await call(b, 'browser_handle_dialog', { accept: true }));
      assert.equal(none.error.code, 'NO_DIALOG');
      const tabs = async (c: Client) =>
        sc<{ tabs: unknown[] }>(await call(c, 'browser_tabs', { action: 'list' })).tabs.length;
      assert.equal(await tabs(b), 2);
      assert.equal(
        sc<{ verdict: string }>(await call(a, 'browser_handle_dialog', { accept: true })).verdict,
        'OK',
      );
      assert.equal(await tabs(a), 1);
      const [deleted] = await srv.waitForActions(1, { run: 'dlg-a' });
      assert.deepEqual([deleted?.do, deleted?.id], ['delete', 'TCK-7741']);
      assert.deepEqual(
        (await srv.waitForActions(1, { run: 'tab-b' })).map((x) => x.do),
        ['open-tab'],
      );
    } finally {
      await Promise.all([a, b].map((c) => end(c)));
    }
  });

  test('malformed JSON, a body over 1 MiB and Origin: null are refused with their codes; the server serves on', async () => {
    const bad = await rawPost(server.endpoint, '{"jsonrpc": "2.0", "id": 1, "method": ');
    assert.deepEqual([bad.status, bad.json.error?.code], [400, -32700]);
    const big = await rawPost(
      server.endpoint,
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { x: 'a'.repeat(1_100_000) } }),
    );
    assert.equal(big.status, 413);
    const nul = await rawPost(server.endpoint, '{}', { origin: 'null' });
    assert.equal(nul.status, 403);
    const c = await connect(server.endpoint);
    try {
      assert.ok((await c.listTools()).tools.length > 0);
    } finally {
      await end(c);
    }
  });

  test('a flood of initialize requests past --max-sessions: the cap holds, the rest get 503, the open session serves on', async () => {
    const a = await connect(server.endpoint);
    try {
      await call(a, 'browser_navigate', { url: srv.url('/approve', { run: 'flood' }) });
      // All at once: the cap must count sessions still being set up, not only those already registered.
      const flood = await Promise.all(Array.from({ length: 20 }, () => rawPost(server.endpoint, INITIALIZE)));
      const ok = flood.filter((r) => r.status === 200);
      assert.equal(ok.length, 1, `statuses: ${flood.map((r) => r.status).join(' ')}`);
      assert.ok(flood.every((r) => r.status === 200 || r.status === 503));
      const refused = flood.find((r) => r.status === 503);
      assert.match(refused?.text ?? '', /--max-sessions 2/);
      const shot = await call(a, 'browser_screenshot');
      assert.ok(!shot.isError, JSON.stringify(shot).slice(0, 300));
      assert.match(sc<{ frame: { url: string } }>(shot).frame.url, /run=flood/);
      for (const r of ok)
        await fetch(server.endpoint, { method: 'DELETE', headers: { 'mcp-session-id': r.session ?? '' } });
    } finally {
      await end(a);
    }
  });

  test('SIGTERM closes every session and browser: none of its Chromium processes is left', async () => {
    const own = await startHttpServer(['--max-sessions', '4']);
    const c = await connect(own.endpoint);
    await call(c, 'browser_navigate', { url: srv.url('/approve', { run: 'shutdown' }) });
    const browsers = browsersOf(own.pid);
    assert.equal(browsers.length, 1);
    await own.stop();
    for (let i = 0; i < 50 && browsers.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(browsers.filter(alive), [], 'the browser went with the server');
    await c.close().catch(() => {});
  });
});

describe('idle sessions', () => {
  test('a session nobody used for --session-idle-s is closed; its id is refused after', async () => {
    const server = await startHttpServer(['--session-idle-s', '1']);
    try {
      const c = await connect(server.endpoint);
      await call(c, 'browser_navigate', { url: 'about:blank' });
      const id = (c.transport as StreamableHTTPClientTransport).sessionId ?? '';
      assert.ok(id);
      await new Promise((r) => setTimeout(r, 2_500));
      const after = await rawPost(
        server.endpoint,
        JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
        {
          'mcp-session-id': id,
        },
      );
      assert.equal(after.status, 404);
      assert.match(
        after.json.error?.message ?? '',
        /not open \(it ended, expired, or lived on a server that is gone\)/,
      );
      await c.close().catch(() => {});
    } finally {
      await server.stop();
    }
  });
});
