// `trueclick matrix --url`: the grounding round trip on a page given only by its URL and selectors, run as a
// user runs it (the built CLI, a child process) against corpus pages built from real libraries (Bootstrap 5
// with its toast shown over the navbar, a React 18 list taller than the viewport, AG Grid, Shoelace, a plain
// form). The truth is the page's: the recorder's log of trusted clicks, and the server's log, which must stay
// empty (the page's default actions are prevented, so nothing is followed, submitted or deleted).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import type { UrlClickResult } from '../../src/cli/matrix/url-run.js';
import { readRecords, writeReport } from '../../src/cli/report.js';
import { sessionsIn } from '../../src/trace/trace.js';
import { SHIFT_C_ON_B, twoButtons } from '../helpers/two-buttons.js';

const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));
const NARROW = [
  '--dpr',
  '1,2',
  '--sources',
  'emulated',
  '--scrollbars',
  'hidden',
  '--downscales',
  'none,client-1568',
];
const PRESETS = ['--presets', 'claude,gemini,qwen2.5-vl'];
/** One browser config and the image as sent: a world whose pages change is clicked once per preset. */
const ONE_WORLD = ['--dpr', '1', '--sources', 'emulated', '--scrollbars', 'hidden', '--downscales', 'none'];

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, 'matrix', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

let srv: FixtureServer;
before(async () => {
  srv = await startFixtureServer();
});
after(async () => {
  await srv?.close();
});

describe('trueclick matrix --url', () => {
  test('Bootstrap page with its toast up: targets reached at DPR 1 and 2 under a client downscale; covered ones reported as covered; nothing submitted', async () => {
    const run = 'url-overlays';
    const r = await cli([
      '--url',
      srv.url('/rw/overlays', { showToast: 50, run }),
      '--target',
      '#new',
      '--target',
      'name=Undo',
      '--target',
      '#tickets tr:nth-child(3) .delete',
      ...NARROW,
      ...PRESETS,
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const lines = r.out.split('\n');
    const row = (target: string) => lines.find((l) => l.startsWith(`${target} `)) ?? '';
    assert.match(row('name=Undo'), /100% \(12\/12\)/);
    assert.match(row('#tickets tr:nth-child(3) .delete'), /100% \(12\/12\)/);
    assert.match(row('#new'), /12 × covered by .* in <div#toast\.toast[^>]*> role=alert/);
    // The naive pipeline beside it: it reaches the targets only where image px happen to be CSS px.
    assert.match(row('name=Undo'), /\d+(\.\d)?% \(\d+\/12\)\s+-$/);
    assert.match(r.out, /trueclick: every click on a clickable target reached it/);
    await new Promise((res) => setTimeout(res, 300));
    assert.deepEqual(srv.actions({ run }), [], 'the recorder kept the page from acting on any click');
  });

  test('--targets-file and --json: off-screen and zero-size targets are reported per cell, not as misses', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'tc-matrix-'));
    const file = join(dir, 'targets.txt');
    writeFileSync(
      file,
      '# rows of the React list (row 3 in view, row 24 below it)\nbutton.delete[value=TCK-7738]\n// \nbutton.delete[value=TCK-7759]\n\n',
    );
    const r = await cli([
      '--url',
      srv.url('/rw/list', { run: 'url-list' }),
      '--targets-file',
      file,
      '--json',
      '--trace-dir',
      join(dir, 'trace'),
      ...NARROW,
      '--presets',
      'claude',
    ]);
    assert.equal(r.code, 0, r.err);
    // --trace-dir: one traced session per browser config, each readable by trueclick report.
    const sessions = sessionsIn(join(dir, 'trace'));
    assert.equal(sessions.length, 2, 'DPR 1 and 2');
    const clicks = sessions.flatMap((f) =>
      readRecords(join(f, 'trace.jsonl')).filter((x) => x.tool === 'browser_click'),
    );
    assert.ok(clicks.length >= 2, `${clicks.length} clicks traced`);
    assert.ok(
      clicks.every((c) => c.frame && c.verdict === 'OK' && c.answer?.imagePoint),
      JSON.stringify(clicks.find((c) => c.verdict !== 'OK')),
    );
    assert.match(writeReport(join(dir, 'trace')).file, /report\.html$/);
    const json = JSON.parse(r.out) as { misses: number; results: UrlClickResult[] };
    assert.equal(json.misses, 0);
    const of = (t: string) => json.results.filter((x) => x.cell.target === t);
    assert.equal(of('button.delete[value=TCK-7738]').length, 4);
    assert.ok(of('button.delete[value=TCK-7738]').every((x) => x.trueclick?.hit && !x.unclickable));
    assert.ok(
      of('button.delete[value=TCK-7759]').every((x) =>
        /^off-screen \(centre at CSS/.test(x.unclickable ?? ''),
      ),
      JSON.stringify(of('button.delete[value=TCK-7759]')[0]),
    );
    const hidden = await cli([
      '--url',
      srv.url('/rw/forms'),
      '--target',
      'input[name=do]',
      '--json',
      ...NARROW,
      '--presets',
      'claude',
    ]);
    const h = JSON.parse(hidden.out) as { results: UrlClickResult[] };
    assert.ok(
      h.results.every((x) => x.unclickable === 'zero-size (0×0 CSS px)'),
      hidden.out.slice(0, 400),
    );
  });

  // Found on AG Grid: a naive answer read as CSS px fell on the grid's own scrollbar, which no page listener
  // can stop; the grid scrolled a page and every later trueclick click of the world was (rightly) refused.
  test("AG Grid: a naive click that would land on the grid's scrollbar is not sent, so the grid stays put", async () => {
    const run = 'url-grid';
    const r = await cli([
      '--url',
      srv.url('/rw/grid', { animate: 0, run }),
      '--target',
      '[col-id="status"] >> nth=5',
      '--target',
      'text=TCK-7745',
      '--dpr',
      '2',
      '--sources',
      'real',
      '--scrollbars',
      'classic',
      '--downscales',
      'client-1568,shown-1000',
      '--presets',
      'qwen2.5-vl',
      '--json',
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const json = JSON.parse(r.out) as { misses: number; results: UrlClickResult[] };
    assert.equal(json.misses, 0, JSON.stringify(json.results.filter((x) => !x.trueclick?.hit)));
    const onBar = json.results.filter((x) => x.naive?.where === 'scrollbar');
    assert.ok(onBar.length >= 1, JSON.stringify(json.results.map((x) => x.naive)));
    assert.ok(onBar.every((x) => x.naive?.hit === false));
    assert.deepEqual(srv.actions({ run }), []);
  });

  test('Shoelace: targets inside open shadow roots (an sl-button, an sl-checkbox) are reached; nothing acted', async () => {
    const run = 'url-shoelace';
    const r = await cli([
      '--url',
      srv.url('/rw/components', { run }),
      '--target',
      '#row-TCK-7739 sl-button.open',
      '--target',
      '#row-TCK-7741 sl-checkbox.pick',
      ...NARROW,
      '--presets',
      'claude,gemini',
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const row = (t: string) => r.out.split('\n').find((l) => l.startsWith(`${t} `)) ?? '';
    assert.match(row('#row-TCK-7739 sl-button.open'), /100% \(8\/8\)/);
    assert.match(row('#row-TCK-7741 sl-checkbox.pick'), /100% \(8\/8\)/);
    assert.deepEqual(srv.actions({ run }), []);
  });

  // Found in CI: on a loaded machine Shoelace's chunks came after the targets were read, the upgraded
  // components laid the row out anew, and every click went where the targets had been.
  test('Shoelace from a slow CDN (each library file 1 s late): the targets are read once the components rendered', async (t) => {
    const slow = await startFixtureServer({ libDelayMs: 1000 });
    t.after(() => slow.close());
    const run = 'url-shoelace-slow';
    const url = slow.url('/rw/components', { run });
    const targets = ['#row-TCK-7739 sl-button.open', '#row-TCK-7741 sl-checkbox.pick'];
    const r = await cli([
      '--url',
      url,
      ...targets.flatMap((x) => ['--target', x]),
      ...ONE_WORLD,
      '--presets',
      'claude',
      '--json',
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const json = JSON.parse(r.out) as { misses: number; results: UrlClickResult[] };
    // The truth: the boxes once the page itself says its components rendered (rw.ready).
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    t.after(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready, null, {
      timeout: 60_000,
    });
    const boxes = await page.evaluate(
      (sel) =>
        sel.map((s) => {
          const b = (document.querySelector(s) as Element).getBoundingClientRect();
          return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
        }),
      targets,
    );
    assert.deepEqual(
      json.results.map((x) => x.box),
      boxes,
    );
    assert.equal(json.misses, 0, JSON.stringify(json.results));
    assert.deepEqual(slow.actions({ run }), []);
  });

  test('a target that never holds still (rows 1 px lower every 50 ms) is reported as moving, not as misses; the still one beside it is clicked', async () => {
    const run = 'url-moving';
    const r = await cli([
      '--url',
      srv.url('/race', { every: 50, mode: 'drift', run }),
      '--target',
      '#race-3',
      '--target',
      '#info',
      ...ONE_WORLD,
      '--presets',
      'claude,gemini',
      '--json',
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const json = JSON.parse(r.out) as { misses: number; results: UrlClickResult[] };
    const of = (t: string) => json.results.filter((x) => x.cell.target === t);
    assert.equal(of('#race-3').length, 2);
    for (const x of of('#race-3'))
      assert.match(x.unclickable ?? '', /^moving \(its box moved during the run: CSS /);
    assert.equal(of('#info').length, 2);
    assert.ok(
      of('#info').every((x) => x.trueclick?.hit),
      JSON.stringify(of('#info')),
    );
    assert.equal(json.misses, 0);
  });

  test('a target the page moved during the run and put back before its end is reported as moving', async () => {
    const file = join(mkdtempSync(join(os.tmpdir(), 'trueclick-matrix-')), 'back.html');
    writeFileSync(file, twoButtons(SHIFT_C_ON_B));
    const r = await cli([
      '--url',
      `file://${file}`,
      '--target',
      '#b',
      '--target',
      '#c',
      ...ONE_WORLD,
      '--presets',
      'claude',
      '--json',
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    const json = JSON.parse(r.out) as { results: UrlClickResult[] };
    assert.deepEqual(
      json.results.map((x) => [x.cell.target, x.trueclick?.hit ?? null]),
      [
        ['#b', true],
        ['#c', null],
      ],
      r.out,
    );
    assert.match(
      json.results[1]?.unclickable ?? '',
      /^moving \(its box moved during the run: CSS \(300, 100\) .* → \(303, 100\)/,
    );
  });

  test('--storage-state: the page is loaded with the login it holds', async () => {
    const dir = mkdtempSync(join(os.tmpdir(), 'tc-matrix-state-'));
    const state = join(dir, 'state.json');
    const cookie = { name: 'session', value: 'u42', domain: '127.0.0.1', path: '/', expires: -1 };
    writeFileSync(
      state,
      JSON.stringify({
        cookies: [{ ...cookie, httpOnly: false, secure: false, sameSite: 'Lax' }],
        origins: [],
      }),
    );
    // /rw/redirect records the request (with the Cookie header the browser sent) and sends it on to the page.
    const run = 'url-state';
    const to = srv.url('/rw/overlays');
    const r = await cli([
      '--url',
      srv.url('/rw/redirect', { to, do: 'visit', run }),
      '--target',
      '#new',
      '--target',
      '#no-such-thing',
      '--storage-state',
      state,
      '--dpr',
      '2',
      '--sources',
      'emulated',
      '--scrollbars',
      'hidden',
      '--downscales',
      'none',
      '--presets',
      'claude',
    ]);
    assert.equal(r.code, 0, `${r.out}\n${r.err}`);
    assert.match(r.out, /#new +100% \(1\/1\)/);
    // A selector that matches nothing (after the 10 s a page gets to render it) is reported, not a miss.
    assert.match(r.out, /#no-such-thing +- +- +1 × no element matches/);
    const visits = srv.actions({ run, do: 'visit' });
    assert.equal(visits.length, 1);
    assert.equal(visits[0]?.cookie, 'session=u42');
  });

  test('bad options: exit 2 with what to fix, nothing run', async () => {
    const noUrl = await cli(['--target', '#x']);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.err, /--target and --targets-file need --url/);
    const noTarget = await cli(['--url', srv.url('/rw/list')]);
    assert.equal(noTarget.code, 2);
    assert.match(noTarget.err, /needs at least one --target/);
    const badUrl = await cli(['--url', 'not a url', '--target', '#x']);
    assert.match(badUrl.err, /is not a URL/);
  });
});
