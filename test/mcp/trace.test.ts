// A session traced with --trace-dir, then `trueclick report`: the records and images on disk, nothing secret
// among them, a kill losing at most the call in flight; the report opened in real Chromium. Also the MCP
// logging capability, progress notifications and the caller's traceparent, through the SDK client in the
// run's era (2025-11-25 sets the log level with logging/setLevel, 2026-07-28 names it in each request's _meta).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type Browser, chromium, type Page } from 'playwright-core';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { readRecords } from '../../src/cli/report.js';
import { sessionsIn } from '../../src/trace/trace.js';
import { attachedMcpForFile } from '../helpers/attached.js';
import { CLI, ERA, type FrameInfo, imagePx, newClient, structured, text } from '../helpers/mcp-client.js';

const dir = mkdtempSync(join(tmpdir(), 'trueclick-trace-'));
const PASSWORD = 'hunter2-Pa55word';
const SECRET = 'sk-test-9f8e7d6c';
/** A W3C trace context as an OpenTelemetry-instrumented client sends it in `_meta`. */
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const ctx = attachedMcpForFile(['--trace-dir', dir, '--secret', SECRET, '--allow-url-scheme', 'data']);

/** Every byte under the trace folder, as text (images too: a secret must not hide in any file). */
function everything(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1'))
    .join('\n');
}

const centreOf = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  assert.ok(b, selector);
  return { box: b, at: { x: b.x + b.width / 2, y: b.y + b.height / 2 } };
};

describe('a traced session and its report', () => {
  let browser: Browser;
  /** What the test asked, to find in the report: the OK click's target box in its frame's image px. */
  const okClick = {} as { frame: FrameInfo; box: { x: number; y: number; width: number; height: number } };
  const logs: Array<{ level: string; data: unknown }> = [];
  before(async () => {
    browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the calls, their frames and their answers are written as they happen; no password or secret', async () => {
    ctx.mcp.client.setNotificationHandler('notifications/message', (n) => {
      logs.push({ level: n.params.level, data: n.params.data });
    });
    await ctx.mcp.logLevel('info');
    let { run, page, f } = await ctx.open('/rw/list');
    const { box, at } = await centreOf(page, '.ticket-row:has-text("TCK-7744") .title');
    const k = f.image.width / f.css.width;
    okClick.frame = f;
    okClick.box = { x: box.x * k, y: box.y * k, width: box.width * k, height: box.height * k };
    const ok = await ctx.mcp.call(
      'browser_click',
      { frame: f.id, ...imagePx(f, at) },
      { traceparent: TRACEPARENT },
    );
    assert.equal(structured<{ verdict: string }>(ok).verdict, 'OK', text(ok));
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, 'TCK-7744');

    ({ run, page, f } = await ctx.open('/rw/list'));
    const before = await centreOf(page, '.ticket-row:has-text("TCK-7741") .title');
    await page.evaluate(() => (window as unknown as { rw: { resort(): void } }).rw.resort());
    const stale = await ctx.mcp.call('browser_click', { frame: f.id, ...imagePx(f, before.at) });
    assert.equal(structured<{ verdict: string }>(stale).verdict, 'STALE_TARGET');

    // A password typed into a login form, and a secret the person running trueclick named.
    const login = `data:text/html,<form><input id=u value=${SECRET}><input id=p type=password autofocus></form>`;
    await ctx.mcp.call('browser_navigate', { url: login });
    const typed = await ctx.mcp.call('browser_type', { text: PASSWORD });
    assert.ok(!typed.isError, text(typed));

    const folder = sessionsIn(dir).at(-1) as string;
    const records = readRecords(join(folder, 'trace.jsonl'));
    assert.deepEqual(
      records.map((r) => r.tool),
      [
        'browser_navigate',
        'browser_screenshot',
        'browser_click',
        'browser_navigate',
        'browser_screenshot',
        'browser_click',
        'browser_navigate',
        'browser_type',
      ],
    );
    const shot = records[1];
    assert.ok(
      shot?.frame && existsSync(join(folder, 'frames', `${shot.frame}.png`)),
      'the frame image is kept',
    );
    const click = records[2];
    assert.equal(click?.verdict, 'OK');
    assert.equal(click?.frame, shot?.frame, 'the click names the frame it was read off');
    assert.ok(click?.answer?.imagePoint && click.answer.hitAtCapture, 'the point and the element at capture');
    assert.equal(click?.traceparent, TRACEPARENT, "the caller's trace context joins the record");
    assert.equal(shot?.traceparent, undefined, 'a call that sent none has none');
    const refused = records[5];
    assert.equal(refused?.verdict, 'STALE_TARGET');
    assert.ok(refused?.answer?.hitNow && refused.answer.changes, 'what it holds now and what changed');
    assert.equal(records[7]?.args.text, '•••');
    const all = everything(dir);
    assert.ok(!all.includes(PASSWORD), 'the password never reaches the disk');
    assert.ok(!all.includes(SECRET), 'a --secret value never reaches the disk');

    // The client's log heard the refusal; the OK click was not news.
    const warned = logs.filter((l) => l.level === 'warning');
    assert.equal(warned.length, 1, JSON.stringify(logs));
    assert.match(JSON.stringify(warned[0]?.data), /STALE_TARGET/);
  });

  test('log level error: a refusal is not sent; progress comes for a long call with a token', async () => {
    await ctx.mcp.logLevel('error');
    const before = logs.length;
    const { page, f } = await ctx.open('/rw/list');
    const { at } = await centreOf(page, '.ticket-row:has-text("TCK-7741") .title');
    await page.evaluate(() => (window as unknown as { rw: { resort(): void } }).rw.resort());
    await ctx.mcp.call('browser_click', { frame: f.id, ...imagePx(f, at) });
    assert.equal(logs.length, before, 'a warning below the level set is not sent');

    const progress: number[] = [];
    await ctx.mcp.client.callTool(
      { name: 'browser_wait_for', arguments: { seconds: 2.5 } },
      {
        onprogress: (p: { progress: number }) => progress.push(p.progress),
        timeout: 30_000,
      },
    );
    assert.ok(progress.length >= 2, `progress notifications: ${progress.join(', ')}`);
    assert.ok(
      progress.every((p, i) => i === 0 || p > (progress[i - 1] ?? 0)),
      'progress rises',
    );
  });

  test('misses of one convention error are traced with where the target was; the third is a FRAME_MISMATCH', async () => {
    const { page, f } = await ctx.open('/rw/list');
    const k = f.image.width / f.css.width;
    // A model reading the image at half its size: every point lands at half the target's image px.
    const verdicts: string[] = [];
    for (const [row, part, label] of [
      ['TCK-7740', 'a.archive', 'Archive'],
      ['TCK-7745', 'button.delete', 'Delete'],
      ['TCK-7748', 'a.archive', 'Archive'],
    ] as const) {
      const { at } = await centreOf(page, `.ticket-row:has-text("${row}") ${part}`);
      const r = await ctx.mcp.call('browser_click', {
        frame: f.id,
        x: (at.x * k) / 2,
        y: (at.y * k) / 2,
        expect: { context: row, text: label },
      });
      verdicts.push(structured<{ verdict: string }>(r).verdict);
    }
    // The third miss of one transform is named as a frame problem by trueclick itself.
    assert.deepEqual(verdicts, ['MISSED_TARGET', 'MISSED_TARGET', 'FRAME_MISMATCH']);
  });

  test('trueclick report: every step shows, its images load, the filter hides OK steps, the point sits on the target', async () => {
    const r = spawnSync(process.execPath, [CLI, 'report', dir], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    const folder = sessionsIn(dir).at(-1) as string;
    const file = join(folder, 'report.html');
    assert.match(r.stdout, /report\.html: \d+ steps/);
    const records = readRecords(join(folder, 'trace.jsonl'));
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (q) => requests.push(q.url()));
    await page.goto(pathToFileURL(file).href);
    assert.equal(await page.locator('.step').count(), records.length);
    const images = page.locator('figure img');
    assert.ok((await images.count()) >= 4);
    const loaded = await images.evaluateAll((imgs) =>
      imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
    );
    assert.ok(loaded.every(Boolean), 'every image loads');
    assert.ok(
      requests.every((u) => u.startsWith('file:')),
      'nothing from the network',
    );

    // The OK click's step: the circle (the model's point), where the page draws it, lies on the target's box
    // (read from the page at the time, in the frame's image px).
    const step = page.locator('.step[data-verdict="OK"][data-tool="browser_click"]').first();
    const drawn = await step
      .locator('.frame')
      .first()
      .evaluate((frame) => {
        const img = frame.querySelector('img') as HTMLImageElement;
        const c = (frame.querySelector('circle.asked') as SVGCircleElement).getBoundingClientRect();
        const i = img.getBoundingClientRect();
        const k = img.naturalWidth / i.width;
        return { x: (c.x + c.width / 2 - i.x) * k, y: (c.y + c.height / 2 - i.y) * k };
      });
    const b = okClick.box;
    assert.ok(
      drawn.x >= b.x && drawn.x <= b.x + b.width && drawn.y >= b.y && drawn.y <= b.y + b.height,
      `drawn at ${JSON.stringify(drawn)}, the target's box ${JSON.stringify(b)}`,
    );

    // The misses, plotted, with the one mapping that explains them (the seed's affine diagnosis).
    assert.equal(await page.locator('#plot circle.given').count(), 3);
    assert.match(
      (await page.locator('#diagnosis').textContent()) ?? '',
      /3 misses.*uniform-scale.*x → 0\.5\d*·x/,
    );

    await page.locator('#refusals').check();
    const visible = await page
      .locator('.step:not(.hidden)')
      .evaluateAll((s) => s.map((e) => (e as HTMLElement).dataset.verdict));
    assert.ok(
      visible.length === 5 &&
        visible.every((v) => /^(STALE_TARGET|MISSED_TARGET|FRAME_MISMATCH)$/.test(v ?? '')),
      visible.join(','),
    );
    await page.locator('#refusals').uncheck();
    await page.locator('#tool').selectOption('browser_type');
    assert.equal(await page.locator('.step:not(.hidden)').count(), 1);
    await page.close();
  });
});

test('a server killed mid-session leaves a readable trace (at most the call in flight lost)', async () => {
  const killed = mkdtempSync(join(tmpdir(), 'trueclick-trace-kill-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--trace-dir', killed],
    stderr: 'pipe',
  });
  const client = newClient(ERA, 'trace-kill');
  await client.connect(transport);
  try {
    await client.callTool({ name: 'browser_navigate', arguments: { url: 'about:blank' } });
    await client.callTool({ name: 'browser_screenshot', arguments: {} });
    const waiting = client
      .callTool({ name: 'browser_wait_for', arguments: { seconds: 20 } }, { timeout: 30_000 })
      .catch(() => null);
    await new Promise((r) => setTimeout(r, 500));
    process.kill(transport.pid as number, 'SIGKILL');
    await waiting;
    const folder = sessionsIn(killed).at(-1) as string;
    // A torn last line (the write cut short) is skipped; the whole ones still read.
    appendFileSync(join(folder, 'trace.jsonl'), '{"seq":3,"tool":"browser_wa');
    const records = readRecords(join(folder, 'trace.jsonl'));
    assert.deepEqual(
      records.map((r) => r.tool),
      ['browser_navigate', 'browser_screenshot'],
    );
    const r = spawnSync(process.execPath, [CLI, 'report', killed], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /2 steps/);
  } finally {
    await client.close().catch(() => {});
    rmSync(killed, { recursive: true, force: true });
  }
});
