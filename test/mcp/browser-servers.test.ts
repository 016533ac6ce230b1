import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { type BrowserServer, chromium } from 'playwright-core';
import { openEraClient } from '../../bench/era-client.js';
import { freePort, spawnServer } from '../../bench/fleet.js';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { startStdio, structured, text } from '../helpers/mcp-client.js';

// Several browser servers behind one --browser-endpoint: sessions spread over those that answer, a dead one
// is skipped with a notice naming it, a server that goes away mid-session hands its sessions to the others,
// and with none alive the error names each. Which browser server a session ran on is read from the
// User-Agent each one's Chromium sends (set per server), as a small HTTP server here records it.

let pages: FixtureServer;
let who: Server;
/** The User-Agent that asked for /who?s=<key>, by key. */
const agents = new Map<string, string>();
let whoOrigin = '';
before(async () => {
  pages = await startFixtureServer();
  who = createServer((req, res) => {
    const key = new URL(req.url ?? '/', 'http://x').searchParams.get('s');
    if (key) agents.set(key, req.headers['user-agent'] ?? '');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>who</title><p>recorded</p>');
  });
  await new Promise<void>((r) => who.listen(0, '127.0.0.1', () => r()));
  whoOrigin = `http://127.0.0.1:${(who.address() as { port: number }).port}`;
});
after(async () => {
  await pages?.close();
  await new Promise((r) => who?.close(r));
});

const browserServer = (name: string) =>
  chromium.launchServer({
    executablePath: findChromium(),
    args: [...CHROMIUM_ARGS, `--user-agent=trueclick-${name}`],
  });

const deadEndpoint = async () => `ws://127.0.0.1:${await freePort()}/nobody-here`;

describe('several browser servers (--browser-endpoint, repeated or comma-separated)', () => {
  test('sessions alternate over the live ones, a dead one is skipped and named; one that goes away hands its sessions on', async () => {
    const bs: Record<string, BrowserServer> = {
      bs1: await browserServer('bs1'),
      bs2: await browserServer('bs2'),
    };
    const dead = await deadEndpoint();
    const server = await spawnServer(await freePort(), [
      '--browser-endpoint',
      `${dead},${bs.bs1?.wsEndpoint()}`,
      '--browser-endpoint',
      bs.bs2?.wsEndpoint() as string,
    ]);
    const clients: Awaited<ReturnType<typeof openEraClient>>[] = [];
    try {
      // One at a time, so the turn each session takes is the order they came in.
      for (let i = 0; i < 4; i++) {
        const c = await openEraClient(server.endpoint, '2025-11-25');
        clients.push(c);
        const nav = await c.call('browser_navigate', { url: `${whoOrigin}/who?s=s${i}` });
        assert.ok(!nav.isError, text(nav));
      }
      const ran = [0, 1, 2, 3].map((i) => agents.get(`s${i}`));
      assert.deepEqual(ran, ['trueclick-bs1', 'trueclick-bs2', 'trueclick-bs1', 'trueclick-bs2']);
      const notices = server
        .stderr()
        .split('\n')
        .filter((l) => l.includes(dead));
      assert.equal(notices.length, 1, `one notice names the dead server:\n${server.stderr()}`);
      assert.match(notices[0] ?? '', /did not answer .*skipping it/);

      // Each session clicks on its own page: the page's own record says the click landed.
      for (const [i, c] of clients.entries()) {
        await c.call('browser_navigate', { url: pages.url('/approve', { run: `bs-${i}` }) });
        const f = structured<{ frame: { id: string; image: { width: number }; css: { width: number } } }>(
          await c.call('browser_screenshot'),
        ).frame;
        const k = f.image.width / f.css.width;
        const r = await c.call('browser_click', { frame: f.id, x: 1102 * k, y: 636 * k });
        assert.equal(structured<{ verdict: string }>(r).verdict, 'OK', text(r));
        assert.equal((await pages.waitForHits(1, { run: `bs-${i}`, type: 'click' }))[0]?.id, 'approve');
      }

      // bs1 goes away: its sessions' next call runs on bs2, and says the old browser is gone.
      await bs.bs1?.close();
      const go = () => clients[0]?.call('browser_navigate', { url: `${whoOrigin}/who?s=moved` });
      let moved = await go();
      // A call already under way when the connection dropped is told the browser went; the next one moves.
      if (moved?.isError && structured<{ verdict: string }>(moved).verdict === 'BROWSER_GONE')
        moved = await go();
      assert.ok(moved && !moved.isError, moved && text(moved));
      assert.match(structured<{ notice?: string }>(moved).notice ?? '', /started a new one/);
      assert.equal(agents.get('moved'), 'trueclick-bs2');
      const stayed = await clients[1]?.call('browser_navigate', { url: `${whoOrigin}/who?s=stayed` });
      assert.ok(stayed && !stayed.isError && !structured<{ notice?: string }>(stayed).notice);
      assert.equal(agents.get('stayed'), 'trueclick-bs2');
      assert.ok(
        server.stderr().includes(`browser server ${bs.bs1?.wsEndpoint()} did not answer`),
        server.stderr(),
      );
    } finally {
      await Promise.all(clients.map((c) => c.end()));
      await server.stop();
      await Promise.all(Object.values(bs).map((b) => b.close().catch(() => {})));
    }
  });

  test('none answers: CONNECT_FAILED naming every endpoint tried', async () => {
    const [a, b] = [await deadEndpoint(), await deadEndpoint()];
    const mcp = await startStdio(['--browser-endpoint', a, '--browser-endpoint', b]);
    try {
      const r = await mcp.call('browser_navigate', { url: pages.url('/approve') });
      assert.ok(r.isError);
      const s = structured<{ verdict: string; error: { code: string; message: string } }>(r);
      assert.deepEqual([s.verdict, s.error.code], ['BROWSER_GONE', 'CONNECT_FAILED']);
      assert.match(s.error.message, /any of the 2 browser servers/);
      assert.ok(s.error.message.includes(a) && s.error.message.includes(b), s.error.message);
    } finally {
      await mcp.close();
    }
  });
});
