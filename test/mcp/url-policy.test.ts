import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { frameOf, imagePx, type McpHarness, startStdio, structured, text } from '../helpers/mcp-client.js';

// Where the browser may go: schemes checked on every typed URL, origins also on every document the browser
// requests (a link, a redirect). `localhost` and `127.0.0.1` are two sites of one fixture server, so the
// server's own log says whether a request to the refused one ever arrived.

let srv: FixtureServer;
let blocking: McpHarness;
let plain: McpHarness;
let other = '';

before(async () => {
  srv = await startFixtureServer();
  other = srv.origin.replace('127.0.0.1', 'localhost');
  [plain, blocking] = await Promise.all([
    startStdio(['--allow-url-scheme', 'data']),
    startStdio(['--blocked-origins', 'localhost']),
  ]);
});
after(async () => {
  await Promise.all([plain?.close(), blocking?.close()]);
  await srv?.close();
});

interface Refusal {
  verdict: string;
  error?: { code: string; field?: string };
  blocked?: { url: string; reason: string };
}

describe('URL schemes', () => {
  test('file:, chrome:, devtools:, view-source:, javascript: are refused by default; data: only when allowed', async () => {
    const refused = [
      'file:///etc/passwd',
      'chrome://version',
      'devtools://devtools/bundled/inspector.html',
      `view-source:${srv.origin}/approve`,
      'javascript:alert(1)',
    ];
    const strict = await startStdio();
    try {
      for (const url of [...refused, 'data:text/html,<p>hi</p>']) {
        const r = await strict.call('browser_navigate', { url });
        const s = structured<Refusal>(r);
        assert.equal(s.error?.code, 'URL_NOT_ALLOWED', `${url}: ${text(r)}`);
        assert.equal(s.error?.field, 'url');
        assert.match(text(r), /scheme is not allowed/);
      }
      const blank = await strict.call('browser_navigate', { url: 'about:blank' });
      assert.ok(!blank.isError, text(blank));
    } finally {
      await strict.close();
    }
    const data = await plain.call('browser_navigate', { url: 'data:text/html,<p id=x>hi</p>' });
    assert.ok(!data.isError, text(data));
    const file = await plain.call('browser_navigate', { url: 'file:///etc/passwd' });
    assert.equal(
      structured<Refusal>(file).error?.code,
      'URL_NOT_ALLOWED',
      'allowing data: allows nothing else',
    );
  });
});

describe('blocked origins', () => {
  test('typed: refused before the browser asks for it', async () => {
    const r = await blocking.call('browser_navigate', { url: `${other}/rw/act?do=typed&run=typed` });
    assert.equal(structured<Refusal>(r).error?.code, 'URL_NOT_ALLOWED', text(r));
    assert.match(text(r), /blocked-origins/);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(srv.actions({ run: 'typed' }).length, 0);
  });

  test('by a link: the click lands, the document request is failed, and the answer says so', async () => {
    const to = `${other}/rw/act?do=link&run=link`;
    await blocking.call('browser_navigate', { url: srv.url('/rw/away', { to }) });
    const f = await frameOf(blocking);
    const r = await blocking.call('browser_click', { frame: f.id, ...imagePx(f, { x: 160, y: 140 }) });
    const s = structured<Refusal>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.blocked?.url, to);
    assert.match(text(r), /trueclick blocked it/);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(srv.actions({ run: 'link' }).length, 0, 'the blocked origin never got the request');
  });

  test('by a redirect: the first hop arrives, the redirected one does not, and navigate says why', async () => {
    const to = `${other}/rw/act?do=landed&run=redir`;
    const r = await blocking.call('browser_navigate', {
      url: srv.url('/rw/redirect', { to, do: 'redirect', run: 'redir' }),
    });
    const s = structured<Refusal>(r);
    assert.equal(s.error?.code, 'URL_NOT_ALLOWED', text(r));
    assert.match(text(r), /redirect/);
    await new Promise((res) => setTimeout(res, 300));
    assert.deepEqual(
      srv.actions({ run: 'redir' }).map((a) => `${a.hostname} ${a.do}`),
      ['127.0.0.1 redirect'],
    );
  });

  test('--allowed-origins: only the listed origins open, by hand or by link', async () => {
    const only = await startStdio(['--allowed-origins', srv.origin]);
    try {
      const typed = await only.call('browser_navigate', { url: `${other}/rw/act?do=typed&run=allow` });
      assert.equal(structured<Refusal>(typed).error?.code, 'URL_NOT_ALLOWED', text(typed));
      const to = `${other}/rw/act?do=link&run=allow`;
      await only.call('browser_navigate', { url: srv.url('/rw/away', { to }) });
      const f = await frameOf(only);
      const r = await only.call('browser_click', { frame: f.id, ...imagePx(f, { x: 160, y: 140 }) });
      assert.equal(structured<Refusal>(r).blocked?.url, to, text(r));
      await new Promise((res) => setTimeout(res, 300));
      assert.equal(srv.actions({ run: 'allow' }).length, 0);
    } finally {
      await only.close();
    }
  });

  test('on a persistent profile (--user-data-dir) too: typed and by a redirect', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trueclick-profile-'));
    const profile = await startStdio(['--user-data-dir', dir, '--blocked-origins', 'localhost']);
    try {
      const typed = structured<Refusal>(await profile.call('browser_navigate', { url: `${other}/approve` }));
      assert.equal(typed.error?.code, 'URL_NOT_ALLOWED');
      const to = `${other}/rw/act?do=landed&run=profile-redir`;
      const r = await profile.call('browser_navigate', {
        url: srv.url('/rw/redirect', { to, do: 'redirect', run: 'profile-redir' }),
      });
      assert.equal(structured<Refusal>(r).error?.code, 'URL_NOT_ALLOWED', text(r));
      await new Promise((res) => setTimeout(res, 300));
      assert.deepEqual(
        srv.actions({ run: 'profile-redir' }).map((a) => `${a.hostname} ${a.do}`),
        ['127.0.0.1 redirect'],
      );
    } finally {
      await profile.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
