import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { CLI, type HttpServerHandle, startHttpServer } from '../helpers/mcp-client.js';

// The streamable HTTP transport: loopback by default, Host/Origin checked, bearer token enforced.
let srv: FixtureServer;
let server: HttpServerHandle;
let endpoint = '';
const TOKEN = 'test-token-5d1f';

before(async () => {
  srv = await startFixtureServer();
  server = await startHttpServer(['--token', TOKEN, '--device-scale-factor', '2']);
  endpoint = server.endpoint;
});
after(async () => {
  await server?.stop();
  await srv?.close();
});

async function post(headers: Record<string, string>) {
  return fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } },
    }),
  });
}

describe('streamable HTTP', () => {
  test('binds 127.0.0.1', () => {
    assert.match(endpoint, /^http:\/\/127\.0\.0\.1:/);
  });

  test('binding beyond loopback without a token is refused before anything listens', () => {
    const r = spawnSync(process.execPath, [CLI, 'serve', '--http', '0', '--host', '0.0.0.0'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, TRUECLICK_TOKEN: '' },
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /Binding 0\.0\.0\.0 exposes the browser beyond this machine: pass --token/);
    assert.doesNotMatch(r.stderr, /streamable HTTP at/);
  });

  test('refuses a missing or wrong bearer token, a foreign Host and a foreign Origin', async () => {
    assert.equal((await post({})).status, 401);
    assert.equal((await post({ authorization: 'Bearer nope' })).status, 401);
    const auth = { authorization: `Bearer ${TOKEN}` };
    assert.equal((await post({ ...auth, origin: 'https://evil.example' })).status, 403);
    // fetch does not let us forge Host; a raw request does.
    const { request } = await import('node:http');
    const url = new URL(endpoint);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host: 'evil.example', ...auth, 'content-type': 'application/json' },
        },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.end('{}');
    });
    assert.equal(status, 403);
  });

  test('an SDK client with the token lists the tools and clicks by frame', async () => {
    const client = new Client({ name: 'http-test', version: '0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), TOOLS.map((t) => t.name).sort());
      await client.callTool({
        name: 'browser_navigate',
        arguments: { url: srv.url('/approve', { run: 'http' }) },
      });
      const shot = (await client.callTool({ name: 'browser_screenshot', arguments: {} })) as CallToolResult;
      const f = (
        shot.structuredContent as { frame: { id: string; image: { width: number; height: number } } }
      ).frame;
      const r = (await client.callTool({
        name: 'browser_click',
        arguments: { frame: f.id, x: (1102 * f.image.width) / 1280, y: (636 * f.image.height) / 800 },
      })) as CallToolResult;
      assert.equal((r.structuredContent as { verdict: string }).verdict, 'OK');
      assert.equal((await srv.waitForHits(1, { run: 'http', type: 'click' }))[0]?.id, 'approve');
    } finally {
      await client.close();
    }
  });
});
