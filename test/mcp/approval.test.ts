import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { attachedMcpForFile } from '../helpers/attached.js';
import { imagePx, structured, text } from '../helpers/mcp-client.js';

// `serve --approve destructive` through the SDK client in the run's era (the test run goes over it in both):
// a 2026-07-28 client gets input_required and retries with the person's answer; for a 2025-11-25 client the
// server asks with elicitation/create inside the call. The person is this file's elicitation handler. What
// was pressed is read from the fixture server's own log of /rw/act.

const ctx = attachedMcpForFile(['--approve', 'destructive'], { elicitation: { form: {} } });
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
      return true;
    };
    const r = await ctx.mcp.call('browser_click', { frame: f.id, ...at });
    assert.equal(verdictOf(r), 'STALE_TARGET', text(r));
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
});
