import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { findChromium } from '../../src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../../src/browser/plumbing/launch.js';
import { readRecords } from '../../src/cli/report.js';
import { sessionsIn } from '../../src/trace/trace.js';
import { attachedMcpForFile } from '../helpers/attached.js';
import { CLI, type FrameInfo, imagePx, structured, text } from '../helpers/mcp-client.js';

// `follow` through a real MCP client (the run's era): browser_click and browser_act on a React list keyed by
// index where a row is prepended after the screenshot, so every row element shows another ticket. The
// server's action log says which ticket was acted on; the trace and its report show the old and new place.

const traceDir = mkdtempSync(join(tmpdir(), 'trueclick-follow-trace-'));
const ctx = attachedMcpForFile(['--trace-dir', traceDir]);
after(() => rmSync(traceDir, { recursive: true, force: true }));

interface Followed {
  verdict: string;
  message: string;
  followed?: { from: { x: number; y: number }; to: { x: number; y: number }; record: string; why: string };
  notFollowed?: { record: string | null; why: string };
}

const prepend = (page: Page, n = 1) =>
  page.evaluate((k) => (window as unknown as { rw: { prepend(n: number): Promise<void> } }).rw.prepend(k), n);

async function aim(page: Page, f: FrameInfo, id: string, sel: string) {
  const b = await page.locator(`.ticket-row:has-text("${id}") ${sel}`).first().boundingBox();
  assert.ok(b, sel);
  return {
    css: { x: b.x + b.width / 2, y: b.y + b.height / 2 },
    at: imagePx(f, { x: b.x + b.width / 2, y: b.y + b.height / 2 }),
  };
}

describe('follow over MCP', () => {
  test('browser_click follow: a row prepended after the frame; Archive of TCK-7741 is followed and archives it', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const { at } = await aim(page, f, 'TCK-7741', 'a.archive');
    await prepend(page);
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at, follow: true });
    const s = structured<Followed>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.followed?.record, 'TCK-7741');
    assert.match(text(r), /^OK: Followed: "TCK-7741" moved [\d.]+ CSS px down since frame f\d+/);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['archive', 'TCK-7741']);
  });

  test('browser_click without follow: the same move is refused and nothing is archived', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const { at } = await aim(page, f, 'TCK-7742', 'a.archive');
    await prepend(page);
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at });
    assert.equal(structured<Followed>(r).verdict, 'STALE_TARGET', text(r));
    await new Promise((res) => setTimeout(res, 300));
    assert.deepEqual(ctx.srv.actions({ run }), []);
  });

  test('browser_act follow: Claude’s left_click, read off the frame before a row was prepended, archives TCK-7743', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const { css } = await aim(page, f, 'TCK-7743', 'a.archive');
    // Claude's coordinates for this frame: CSS px scaled as its computer tool sees the screenshot.
    const k = f.image.width / f.css.width;
    const { s } = await (async () => {
      await prepend(page);
      const r = await ctx.mcp.call('browser_act', {
        frame: f.id,
        model: 'claude',
        follow: true,
        action: {
          type: 'tool_use',
          id: 'toolu_f1',
          name: 'computer',
          input: { action: 'left_click', coordinate: [Math.round(css.x * k), Math.round(css.y * k)] },
        },
        screenshot: false,
      });
      return { s: structured<{ verdict: string; message: string; steps: Array<{ report?: Followed }> }>(r) };
    })();
    assert.equal(s.verdict, 'OK', s.message);
    assert.equal(s.steps[0]?.report?.followed?.record, 'TCK-7743');
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['archive', 'TCK-7743']);
  });

  test('the trace keeps `followed`, and the report draws the model’s point, the press and the line between', async () => {
    const folder = sessionsIn(traceDir).at(-1) as string;
    const records = readRecords(join(folder, 'trace.jsonl'));
    const clicked = records.find((x) => x.tool === 'browser_click' && x.verdict === 'OK');
    assert.equal((clicked?.answer?.followed as { record?: string } | undefined)?.record, 'TCK-7741');
    const r = spawnSync(process.execPath, [CLI, 'report', traceDir], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 0, r.stderr);
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(join(folder, 'report.html')).href);
      const step = page.locator('.step[data-verdict="OK"][data-tool="browser_click"]').first();
      assert.equal(await step.locator('line.followed').count(), 1);
      assert.match((await step.locator('figcaption').first().textContent()) ?? '', /followed: "TCK-7741"/);
    } finally {
      await browser.close();
    }
  });
});
