import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CallToolResult, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { TrueclickError } from '../../src/geometry/index.js';
import { callerOf, goneHere, HANDLE_TTL_MS, mintHandle, newSid, readHandle } from '../../src/mcp/handles.js';
import { type HttpServerHandle, newClient, startHttpServer } from '../helpers/mcp-client.js';

// MCP 2026-07-28 has no protocol sessions: a browser session is named by a handle the server minted, passed
// back as the `session` argument and mirrored into Mcp-Param-Session. The handle is the client's to send,
// so it is attacker-controlled: these tests forge, alter, replay under another token, and outlive it.

const KEYS = { instance: 'tc1', secret: 'fleet-secret-for-tests' };
const A = 'token-of-caller-a';
const B = 'token-of-caller-b';

const refusal = (fn: () => unknown): TrueclickError => {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TrueclickError, String(err));
    return err;
  }
  assert.fail('no refusal');
};

describe('session handles', () => {
  test('a handle reads back as what it names, for the caller it was minted for', () => {
    const sid = newSid();
    const h = mintHandle(KEYS, sid, callerOf(A));
    assert.match(h, /^tc1\.[A-Za-z0-9_-]+\.[0-9a-z]+\.[A-Za-z0-9_-]+$/, 'header-safe, instance first');
    assert.equal(readHandle(KEYS, h, callerOf(A)).sid, sid);
  });

  test('altered, forged, another caller’s, another fleet’s: one refusal, BAD_HANDLE', () => {
    const h = mintHandle(KEYS, newSid(), callerOf(A));
    const last = h.at(-1) === 'A' ? 'B' : 'A';
    for (const [what, handle, caller, keys] of [
      ['altered', `${h.slice(0, -1)}${last}`, callerOf(A), KEYS],
      ['another sid', h.replace(/^tc1\.[^.]+/, `tc1.${newSid()}`), callerOf(A), KEYS],
      ['another caller', h, callerOf(B), KEYS],
      ['no token', h, callerOf(undefined), KEYS],
      ['another fleet', h, callerOf(A), { ...KEYS, secret: 'another' }],
      ['not a handle', 'tc1.abc', callerOf(A), KEYS],
    ] as const) {
      const err = refusal(() => readHandle(keys, handle, caller));
      assert.equal(err.code, 'BAD_HANDLE', what);
      assert.equal(err.kind, 'bad_input', what);
      assert.match(err.hint, /browser_navigate with a url and no session/, what);
    }
  });

  test('a handle older than its lifetime is refused as gone, saying how old it is', () => {
    const h = mintHandle(KEYS, newSid(), '', Date.now() - HANDLE_TTL_MS - 60_000);
    const err = refusal(() => readHandle(KEYS, h, ''));
    assert.equal(err.code, 'SESSION_GONE');
    assert.match(err.problem, /expired: it was minted 24 h ago/);
  });

  test('a good handle of another server names that server; one this server lost says so', () => {
    const claim = readHandle(KEYS, mintHandle({ ...KEYS, instance: 'tc9' }, newSid(), ''), '');
    assert.match(goneHere(KEYS, claim, 'unknown').problem, /lives on server tc9, and this is tc1/);
    const own = readHandle(KEYS, mintHandle(KEYS, newSid(), ''), '');
    assert.match(goneHere(KEYS, own, 'unknown').problem, /tc1 holds no such session/);
    assert.match(goneHere(KEYS, own, 'idle').problem, /closed after it sat unused/);
  });
});

describe('browser sessions by handle over HTTP (2026-07-28)', () => {
  let srv: FixtureServer;
  let server: HttpServerHandle;
  /** Every request the SDK client sent, with its headers: the client's own word on what it mirrored. */
  const sent: Array<{ method: string; headers: Headers }> = [];

  before(async () => {
    srv = await startFixtureServer();
    server = await startHttpServer([
      '--token',
      `${A},${B}`,
      '--instance',
      'tc1',
      '--fleet-secret',
      KEYS.secret,
      '--device-scale-factor',
      '2',
    ]);
  });
  after(async () => {
    await server?.stop();
    await srv?.close();
  });

  async function caller(token: string) {
    const client = newClient('2026-07-28');
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.endpoint), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        fetch: async (url, init) => {
          const headers = new Headers(init?.headers);
          const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
          sent.push({ method: body.method ?? '', headers });
          return fetch(url, init);
        },
      }),
    );
    // The client mirrors arguments into headers for the tools it has listed (as every agent does first).
    await client.listTools();
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { client, call };
  }
  const sc = <T = Record<string, unknown>>(r: CallToolResult) => r.structuredContent as T;

  test('navigate mints a handle; the client mirrors it into Mcp-Param-Session; it reaches that session’s page only', async () => {
    const a = await caller(A);
    const b = await caller(B);
    try {
      const na = await a.call('browser_navigate', { url: srv.url('/approve', { run: 'handle-a' }) });
      assert.ok(!na.isError, JSON.stringify(na.content));
      const ha = sc<{ session: string }>(na).session;
      assert.match(ha, /^tc1\./);
      assert.match(JSON.stringify(na.content), /pass it as `session` on every later call/);
      const hb = sc<{ session: string }>(
        await b.call('browser_navigate', { url: srv.url('/approve', { run: 'handle-b' }) }),
      ).session;
      assert.notEqual(ha, hb);

      const shot = await a.call('browser_screenshot', { session: ha });
      const f = sc<{ frame: { id: string; image: { width: number } } }>(shot).frame;
      const mirrored = sent.filter((s) => s.method === 'tools/call').at(-1);
      assert.equal(mirrored?.headers.get('mcp-param-session'), ha, 'the SDK client mirrored the handle');
      assert.equal(mirrored?.headers.get('mcp-name'), 'browser_screenshot');

      // B holds A's handle (it leaked): B's token is not the one it was minted for.
      const k = f.image.width / 1280;
      const stolen = await b.call('browser_click', { session: ha, frame: f.id, x: 1102 * k, y: 636 * k });
      assert.equal(stolen.isError, true);
      assert.equal(sc<{ error: { code: string } }>(stolen).error.code, 'BAD_HANDLE');
      const mine = await a.call('browser_click', { session: ha, frame: f.id, x: 1102 * k, y: 636 * k });
      assert.equal(sc<{ verdict: string }>(mine).verdict, 'OK');
      await srv.waitForHits(1, { run: 'handle-a', type: 'click' });
      assert.equal(srv.hits({ run: 'handle-a', type: 'click' }).length, 1, 'only A’s own click reached A');
      assert.equal(srv.hits({ run: 'handle-b', type: 'click' }).length, 0, 'nothing reached B’s page');

      // Without a handle, only navigate starts a session; anything else says how to get one.
      const none = await a.call('browser_screenshot');
      assert.equal(sc<{ error: { code: string } }>(none).error.code, 'NO_SESSION');
    } finally {
      await a.client.close();
      await b.client.close();
    }
  });

  test('a forged handle, a lost session and another server’s session are refused by name; nothing acts', async () => {
    const a = await caller(A);
    try {
      const err = async (session: string) =>
        sc<{ verdict: string; error: { code: string; message: string } }>(
          await a.call('browser_screenshot', { session }),
        );
      const forged = await err(mintHandle({ ...KEYS, secret: 'guessed' }, newSid(), callerOf(A)));
      assert.equal(forged.error.code, 'BAD_HANDLE');
      const lost = await err(mintHandle(KEYS, newSid(), callerOf(A)));
      assert.equal(lost.verdict, 'SESSION_GONE');
      assert.match(lost.error.message, /tc1 holds no such session/);
      const elsewhere = await err(mintHandle({ ...KEYS, instance: 'tc2' }, newSid(), callerOf(A)));
      assert.equal(elsewhere.verdict, 'SESSION_GONE');
      assert.match(elsewhere.error.message, /lives on server tc2/);
    } finally {
      await a.client.close();
    }
  });

  test('a body and an Mcp-Param-Session header that disagree are refused before anything runs (HeaderMismatch)', async () => {
    const h = mintHandle(KEYS, newSid(), callerOf(A));
    const r = await fetch(server.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${A}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'browser_screenshot',
        'mcp-param-session': `${h}x`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 41,
        method: 'tools/call',
        params: {
          name: 'browser_screenshot',
          arguments: { session: h },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    assert.equal(r.status, 400);
    const body = (await r.json()) as { id: number; error: { code: number } };
    assert.equal(body.error.code, -32020);
    assert.equal(body.id, 41, 'the error names the request it answers');
  });

  test('a 2025-11-25 client on the same endpoint gets an MCP session whose id names the instance', async () => {
    const r = await fetch(server.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${A}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'old', version: '0' },
        },
      }),
    });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('mcp-session-id') ?? '', /^tc1-[0-9a-f-]{36}$/);
    await r.body?.cancel();
  });
});

describe('a handle whose session idled out', () => {
  test('is refused as closed after sitting unused, not as unknown', async () => {
    const srv = await startFixtureServer();
    const server = await startHttpServer(['--session-idle-s', '1', '--instance', 'tc3']);
    const client = newClient('2026-07-28');
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.endpoint)));
      const nav = (await client.callTool({
        name: 'browser_navigate',
        arguments: { url: srv.url('/approve', { run: 'idle' }) },
      })) as CallToolResult;
      const session = (nav.structuredContent as { session: string }).session;
      await new Promise((r) => setTimeout(r, 2_500));
      const late = (await client.callTool({
        name: 'browser_screenshot',
        arguments: { session },
      })) as CallToolResult;
      const s = late.structuredContent as { verdict: string; message: string };
      assert.equal(s.verdict, 'SESSION_GONE');
      assert.match(s.message, /closed after it sat unused too long/);
    } finally {
      await client.close();
      await server.stop();
      await srv.close();
    }
  });
});
