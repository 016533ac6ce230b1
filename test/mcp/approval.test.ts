import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { readRecords } from '../../src/cli/report.js';
import { sessionsIn } from '../../src/trace/trace.js';
import { attachedMcpForFile } from '../helpers/attached.js';
import { CLI, imagePx, structured, text } from '../helpers/mcp-client.js';

// `serve --approve destructive` through the SDK client in the run's era (the test run goes over it in both):
// a 2026-07-28 client gets input_required and retries with the person's answer; for a 2025-11-25 client the
// server asks with elicitation/create inside the call. The person is this file's elicitation handler. What
// was pressed is read from the fixture server's own log of /rw/act.

const traceDir = mkdtempSync(join(tmpdir(), 'trueclick-approval-trace-'));
const ctx = attachedMcpForFile(['--approve', 'destructive', '--trace-dir', traceDir], {
  elicitation: { form: {} },
});
after(() => rmSync(traceDir, { recursive: true, force: true }));
const asked: string[] = [];
let person: () => Promise<boolean> = async () => true;

async function aim(ticket: string, selector: string) {
  const { run, page, f } = await ctx.open('/rw/list');
  const b = await page.locator(`.ticket-row:has-text("${ticket}") ${selector}`).first().boundingBox();
  assert.ok(b, selector);
  return { run, page, f, at: imagePx(f, { x: b.x + b.width / 2, y: b.y + b.height / 2 }) };
}
const resort = (page: Awaited<ReturnType<typeof aim>>['page']) =>
  page.evaluate(() => (window as unknown as { rw: { resort(): void } }).rw.resort());
const verdictOf = (r: CallToolResult) => structured<{ verdict: string }>(r).verdict;
const settle = () => new Promise((r) => setTimeout(r, 500));

describe('the approval gate over MCP', () => {
  test('the person is asked with the row, says yes on a still page: the ticket is deleted once', async () => {
    ctx.mcp.client.setRequestHandler('elicitation/create', async (req) => {
      asked.push(req.params.message);
      return (await person()) ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
    });
    const { run, f, at } = await aim('TCK-7741', 'button.delete');
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at });
    assert.equal(verdictOf(r), 'OK', text(r));
    assert.match(asked.at(-1) ?? '', /click "Delete" in record ".*TCK-7741.*" \(frame f\d+/);
    assert.match(asked.at(-1) ?? '', /presses nothing if it changed/);
    const a = structured<{ approval: { approved: boolean; route: string; yesToPressMs: number } }>(
      r,
    ).approval;
    assert.ok(a.approved && a.route === 'elicitation' && a.yesToPressMs >= 0, JSON.stringify(a));
    const done = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      done.map((x) => [x.method, x.do, x.id]),
      [['POST', 'delete', 'TCK-7741']],
    );
  });

  test('yes after the rows re-sorted while the person looked: STALE_TARGET, nothing deleted', async () => {
    const { run, page, f, at } = await aim('TCK-7741', 'button.delete');
    person = async () => {
      await resort(page);
      await new Promise((r) => setTimeout(r, 400));
      return true;
    };
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at });
    assert.equal(verdictOf(r), 'STALE_TARGET', text(r));
    // How long the person took is counted from the question, not from the retry that carried the answer.
    const waited = structured<{ approval: { waitedMs: number } }>(r).approval.waitedMs;
    assert.ok(waited >= 400, `waitedMs ${waited}`);
    assert.match(
      text(r),
      /Approved \d+ (ms|s) after frame f\d+, but the page is not what the person was shown/,
    );
    await settle();
    assert.deepEqual(ctx.srv.actions({ run }), []);
  });

  test('no: DECLINED, nothing archived; a link that opens a ticket is not put to the person', async () => {
    person = async () => false;
    let { run, f, at } = await aim('TCK-7742', 'a.archive');
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at });
    assert.equal(verdictOf(r), 'DECLINED', text(r));
    await settle();
    assert.deepEqual(ctx.srv.actions({ run }), []);

    const before = asked.length;
    ({ run, f, at } = await aim('TCK-7743', '.title'));
    const open = await ctx.mcp.call('browser_click', { frame: f.id, ...at });
    assert.equal(verdictOf(open), 'OK', text(open));
    assert.equal(asked.length, before, 'not asked');
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.do, 'open');
  });

  test('browser_act stops at a gated press after actions that ran: nothing is deleted, nobody is asked', async () => {
    const { run, f, at } = await aim('TCK-7745', 'button.delete');
    const before = asked.length;
    const k = f.image.width / f.css.width;
    // openai-cua speaks CSS px of the viewport as the screenshot shows it at DPR 1: image px / k.
    const px = { x: Math.round(at.x / k), y: Math.round(at.y / k) };
    const r = await ctx.mcp.call('browser_act', {
      frame: f.id,
      model: 'openai-cua',
      action: {
        type: 'computer_call',
        call_id: 'call_ap',
        pending_safety_checks: [],
        actions: [
          { type: 'move', x: 20, y: 20 },
          { type: 'click', button: 'left', ...px },
          { type: 'keypress', keys: ['ESC'] },
        ],
      },
    });
    const s = structured<{
      verdict: string;
      steps: Array<{ status: string; message: string; error?: { code: string } }>;
    }>(r);
    assert.equal(s.steps[0]?.status, 'done', text(r));
    assert.equal(s.steps[1]?.status, 'refused');
    assert.equal(s.steps[1]?.error?.code, 'NEEDS_APPROVAL');
    assert.match(s.steps[1]?.message ?? '', /make this press with browser_click/);
    assert.equal(s.steps[2]?.status, 'not_run');
    assert.equal(s.verdict, 'BLOCKED');
    assert.equal(asked.length, before, 'not asked inside a batch that already acted');
    await settle();
    assert.deepEqual(ctx.srv.actions({ run }), []);
  });

  test("a model's left_mouse_down on Delete is a press too: the batch stops there, nothing is deleted", async () => {
    const { run, f, at } = await aim('TCK-7746', 'button.delete');
    const before = asked.length;
    // Claude speaks image px of a screenshot scaled to fit 1568 px (the preset); here the frame is smaller.
    const r = await ctx.mcp.call('browser_act', {
      frame: f.id,
      model: 'claude',
      // Three tool_use blocks of one assistant turn, as the API returns them.
      action: [
        { action: 'mouse_move', coordinate: [Math.round(at.x), Math.round(at.y)] },
        { action: 'left_mouse_down' },
        { action: 'left_mouse_up' },
      ].map((input, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'computer', input })),
    });
    const s = structured<{ steps: Array<{ status: string; error?: { code: string } }> }>(r);
    assert.deepEqual(
      s.steps.map((x) => x.status),
      ['done', 'refused', 'not_run'],
      text(r),
    );
    assert.equal(s.steps[1]?.error?.code, 'NEEDS_APPROVAL');
    assert.equal(asked.length, before);
    await settle();
    assert.deepEqual(ctx.srv.actions({ run }), []);
  });

  test('2026-07-28: a yes is used once; a replayed or altered requestState presses nothing', async (t) => {
    if (ctx.mcp.era !== '2026-07-28') return t.skip('the 2025 client never holds the requestState');
    const { run, f, at } = await aim('TCK-7744', 'button.delete');
    const args = { frame: f.id, ...at };
    const first = (await ctx.mcp.client.callTool(
      { name: 'browser_click', arguments: args },
      { allowInputRequired: true },
    )) as unknown as { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
    assert.equal(first.resultType, 'input_required');
    assert.ok(first.inputRequests.approve);
    const yes = { approve: { action: 'accept', content: { approve: true } } };
    const retry = (requestState: string) =>
      ctx.mcp.client
        .callTool({ name: 'browser_click', arguments: args, inputResponses: yes, requestState } as never)
        .then(
          (r) => r as CallToolResult,
          (err: Error) => err,
        );
    const pressed = await retry(first.requestState);
    assert.ok(!(pressed instanceof Error) && verdictOf(pressed) === 'OK', String(pressed));
    const again = await retry(first.requestState);
    assert.ok(!(again instanceof Error), String(again));
    assert.equal(structured<{ error: { code: string } }>(again).error.code, 'APPROVAL_USED');
    const altered = await retry(`${first.requestState.slice(0, -2)}xx`);
    assert.ok(altered instanceof Error && /requestState/i.test(altered.message), String(altered));
    await settle();
    assert.equal(ctx.srv.actions({ run }).length, 1, 'one yes, one delete');
  });

  test('the trace records each question and answer; the report shows the crop the person saw beside the page', async () => {
    const folder = sessionsIn(traceDir).at(-1) as string;
    const records = readRecords(join(folder, 'trace.jsonl'));
    type A = {
      approval?: { asked?: boolean; approved?: boolean; route?: string };
      approvalCrop?: string;
      now?: { id: string };
    };
    const answers = records.map((r) => ({ r, a: (r.answer ?? {}) as A }));
    const asks = answers.filter(({ a }) => a.approval?.asked);
    const answered = answers.filter(({ a }) => a.approval && !a.approval.asked);
    assert.ok(asks.length >= 3, `asked records: ${asks.length}`);
    assert.ok(asks.every(({ r }) => r.verdict === 'NEEDS_APPROVAL'));
    const yes = answered.find(({ r, a }) => r.verdict === 'OK' && a.approval?.approved);
    const moved = answered.find(({ r, a }) => r.verdict === 'STALE_TARGET' && a.approval?.approved);
    const no = answered.find(({ r }) => r.verdict === 'DECLINED');
    assert.ok(yes && moved && no, JSON.stringify(answered.map(({ r }) => r.verdict)));
    for (const { a } of [yes, moved, no]) {
      assert.ok(
        a.approvalCrop && existsSync(join(folder, 'frames', `${a.approvalCrop}.png`)),
        'the crop is kept',
      );
      assert.ok(a.now && existsSync(join(folder, 'frames', `${a.now.id}.png`)), 'the page after is kept');
    }
    const made = spawnSync(process.execPath, [CLI, 'report', traceDir], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(made.status, 0, made.stderr);
    const page = await ctx.chrome.context.newPage();
    try {
      await page.goto(pathToFileURL(join(folder, 'report.html')).href);
      const step = page.locator(`.step:has(.approval)`).filter({ hasText: 'Approved by the person' }).first();
      await step.waitFor();
      const caption = step.locator('.approval figcaption');
      assert.match(
        (await caption.allTextContents()).join(' | '),
        /what the person was shown.*\| the page after the answer and the press/,
      );
      const loaded = await step
        .locator('.approval img')
        .evaluateAll((imgs) =>
          imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
        );
      assert.deepEqual(loaded, [true, true]);
    } finally {
      await page.close();
    }
  });
});

describe('the approval gate with follow', () => {
  const prepend = (page: Awaited<ReturnType<typeof aim>>['page']) =>
    page.evaluate(() => (window as unknown as { rw: { prepend(): Promise<void> } }).rw.prepend());

  test('the row moved before the question: the person is shown its new place, says yes, and TCK-7741 is deleted', async () => {
    const { run, page, f, at } = await aim('TCK-7741', 'button.delete');
    await prepend(page);
    person = async () => true;
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at, follow: true });
    assert.equal(verdictOf(r), 'OK', text(r));
    assert.match(asked.at(-1) ?? '', /TCK-7741.*It has moved since: the press goes to it at its new place/);
    assert.equal(structured<{ followed?: { record: string } }>(r).followed?.record, 'TCK-7741');
    const done = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual(
      done.map((x) => [x.method, x.do, x.id]),
      [['POST', 'delete', 'TCK-7741']],
    );
  });

  test('the row moved while the person looked at where it was: a yes presses nothing', async () => {
    const { run, page, f, at } = await aim('TCK-7742', 'button.delete');
    person = async () => {
      await prepend(page);
      return true;
    };
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at, follow: true });
    assert.equal(verdictOf(r), 'STALE_TARGET', text(r));
    assert.match(text(r), /moved after the person was shown it, so nothing was pressed/);
    await settle();
    assert.deepEqual(ctx.srv.actions({ run }), []);
  });
});
