import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { frameOf, imagePx, type McpHarness, startStdio, structured, text } from '../helpers/mcp-client.js';

// Clicking by frame in image pixels must hit at every devicePixelRatio, in every world SPEC S2 lists as a trap.
let srv: FixtureServer;
before(async () => {
  srv = await startFixtureServer();
});
after(async () => {
  await srv?.close();
});

interface Report {
  verdict: string;
  landed?: { id?: string } | null;
}

async function clickTargets(
  mcp: McpHarness,
  run: string,
  page: string,
  targets: Array<{ id: string; css: { x: number; y: number } }>,
) {
  await mcp.call('browser_navigate', { url: srv.url(page, { run }) });
  const f = await frameOf(mcp);
  for (const t of targets) {
    const p = imagePx(f, t.css);
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    assert.equal(structured<Report>(r).verdict, 'OK', `${run} ${t.id}: ${text(r)}`);
    assert.equal(structured<Report>(r).landed?.id, t.id, `${run} ${t.id}`);
  }
  const hits = await srv.waitForHits(targets.length, { run, type: 'click' });
  assert.deepEqual(
    hits.map((h) => h.id),
    targets.map((t) => t.id),
    `${run}: the page recorded the clicks on the intended elements`,
  );
  return f;
}

const NEAR_FAR = [
  { id: 'near', css: { x: 20, y: 20 } },
  { id: 'far', css: { x: 1260, y: 780 } },
];

describe('devicePixelRatio set {1, 1.65, 2, 3}, emulated, clicking by frame image px', () => {
  for (const dpr of [1, 1.65, 2, 3]) {
    test(`DPR ${dpr}: near-origin and far-corner targets hit`, async () => {
      const mcp = await startStdio(['--device-scale-factor', String(dpr)]);
      try {
        const f = await clickTargets(mcp, `dpr-${dpr}`, '/targets', NEAR_FAR);
        assert.equal(f.devicePixelRatio, dpr);
        assert.deepEqual(f.css, { width: 1280, height: 800 });
      } finally {
        await mcp.close();
      }
    });
  }

  test('DPR 1.65 in a 2327 px wide viewport, full resolution (--max-image-edge 0): the checkbox is hit', async () => {
    const mcp = await startStdio([
      '--device-scale-factor',
      '1.65',
      '--viewport',
      '2327x1156',
      '--max-image-edge',
      '0',
    ]);
    try {
      await mcp.call('browser_navigate', { url: srv.url('/checkboxes', { w: 2327, run: 'cb' }) });
      const f = await frameOf(mcp);
      assert.deepEqual(f.image, { width: 3840, height: 1907 });
      const p = imagePx(f, { x: 1396.5, y: 698.5 });
      const r = await mcp.call('browser_click', {
        frame: f.id,
        x: p.x,
        y: p.y,
        expect: { role: 'checkbox' },
      });
      assert.equal(structured<Report>(r).landed?.id, 'cb1', text(r));
    } finally {
      await mcp.close();
    }
  });
});

describe('worlds that trap the ratio', () => {
  test('classic 16 px scrollbar at DPR 2: the far-right target beside the scrollbar is hit', async () => {
    const mcp = await startStdio(['--device-scale-factor', '2']);
    try {
      const f = await clickTargets(mcp, 'scrollbar', '/scrollbar', [
        { id: 'far-right', css: { x: 1236, y: 716 } },
        { id: 'near-origin', css: { x: 28, y: 20 } },
      ]);
      // The image includes the scrollbar: 1280 CSS px wide, not cssVisualViewport's 1264.
      assert.equal(f.css.width, 1280);
    } finally {
      await mcp.close();
    }
  });

  test('a real fractional scale factor (--force-device-scale-factor 1.65, fractional CSS viewport)', async () => {
    const mcp = await startStdio(['--device-scale-factor', '1.65', '--scale-source', 'real']);
    try {
      const f = await clickTargets(mcp, 'real-165', '/targets', NEAR_FAR);
      assert.equal(f.devicePixelRatio, 1.65);
    } finally {
      await mcp.close();
    }
  });

  test("a browser attached over --cdp-endpoint at its own DPR 1.65 (a laptop's 150 % × 110 %): hits, and a link that navigates is OK", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trueclick-cdp-'));
    const chrome = spawn(
      findChromium(),
      [
        ...CHROMIUM_ARGS,
        '--headless',
        `--user-data-dir=${dir}`,
        '--remote-debugging-port=0',
        '--force-device-scale-factor=1.65',
        '--window-size=1280,800',
        'about:blank',
      ],
      // Its own process group, so the helpers (zygote, renderers) go with it.
      { stdio: 'ignore', detached: true },
    );
    try {
      let port = '';
      for (let i = 0; i < 100 && !port; i++) {
        await new Promise((r) => setTimeout(r, 100));
        try {
          port = readFileSync(join(dir, 'DevToolsActivePort'), 'utf8').split('\n')[0] ?? '';
        } catch {}
      }
      assert.ok(port, 'Chromium wrote its DevTools port');
      const mcp = await startStdio(['--cdp-endpoint', `http://127.0.0.1:${port}`]);
      try {
        await mcp.call('browser_navigate', { url: srv.url('/targets', { run: 'cdp' }) });
        const f = await frameOf(mcp);
        assert.equal(f.devicePixelRatio, 1.65);
        for (const t of [
          { id: 'near', css: { x: 20, y: 20 } },
          { id: 'mid', css: { x: f.css.width / 2, y: f.css.height / 2 } },
        ]) {
          const p = imagePx(f, t.css);
          const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
          assert.equal(structured<Report>(r).landed?.id, t.id, text(r));
        }
        // A page the browser already had open got trueclick's guard late; a link is still confirmed.
        await mcp.call('browser_navigate', { url: srv.url('/nav-a', { run: 'cdp-nav' }) });
        const g = await frameOf(mcp);
        const p = imagePx(g, { x: 140, y: 140 });
        const nav = await mcp.call('browser_click', { frame: g.id, x: p.x, y: p.y });
        const s = structured<Report & { navigation?: { url?: string } }>(nav);
        assert.equal(s.verdict, 'OK', text(nav));
        assert.notEqual(nav.isError, true);
        assert.equal(s.landed?.id, 'to-b');
        assert.match(s.navigation?.url ?? '', /\/nav-b/);
        assert.equal((await srv.waitForHits(1, { run: 'cdp-nav', type: 'click' }))[0]?.id, 'to-b');
      } finally {
        await mcp.close();
      }
    } finally {
      if (chrome.exitCode === null && chrome.pid) {
        const exited = once(chrome, 'exit');
        process.kill(-chrome.pid, 'SIGKILL');
        await exited;
      }
      // Best effort: a helper process may still be flushing its profile; a leftover temp folder fails nothing.
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {}
    }
  });
});
