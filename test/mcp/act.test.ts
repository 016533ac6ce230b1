import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { conventionFor, type PresetName, toConvention } from '../../src/geometry/index.js';
import { attachedMcpForFile } from '../helpers/attached.js';
import { type FrameInfo, structured, text } from '../helpers/mcp-client.js';

// browser_act: each family's own action format, executed as emitted, through a real MCP client on pages
// built from real libraries. A stand-in model writes what that family would write for a target the page
// itself locates; the server's action log (and the page's record) says what happened.

const ctx = attachedMcpForFile();

interface Step {
  name: string;
  status: string;
  verdict?: string;
  message: string;
}
interface Acted {
  verdict: string;
  message: string;
  steps: Step[];
  ran: number;
  refused: number;
  notRun: number;
  reply?: Record<string, unknown>;
  screenshot?: FrameInfo;
  error?: { code: string; field?: string; kind: string };
}

/** Where an element's centre is, in CSS viewport px, as the page lays it out. */
async function centre(loc: Locator) {
  const b = await loc.boundingBox();
  assert.ok(b, 'the target has a box');
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** What `model` writes for a CSS point of frame `f`: its own units and resize rule, x first, whole numbers. */
function said(model: PresetName, f: FrameInfo, css: { x: number; y: number }): [number, number] {
  const geometry = { image: f.image, css: f.css, scroll: f.scroll, devicePixelRatio: f.devicePixelRatio };
  const [x = 0, y = 0] = toConvention(css, conventionFor({ model, axis_order: 'xy' }, geometry), geometry);
  return [Math.round(x), Math.round(y)];
}

async function act(args: Record<string, unknown>) {
  const r = await ctx.mcp.call('browser_act', args);
  return { r, s: structured<Acted>(r) };
}

const archiveOf = (page: Page, id: string) =>
  page.locator('.ticket-row', { hasText: id }).locator('a.archive');

describe('Anthropic (Claude computer use)', () => {
  test('computer_20250124 left_click on a React list row’s Archive link archives that ticket', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const [x, y] = said('claude', f, await centre(archiveOf(page, 'TCK-7741')));
    const { r, s } = await act({
      frame: f.id,
      model: 'claude',
      action: {
        type: 'tool_use',
        id: 'toolu_01A',
        name: 'computer',
        input: { action: 'left_click', coordinate: [x, y] },
      },
    });
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.steps[0]?.status, 'done');
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['archive', 'TCK-7741']);
    const blocks = (s.reply as { content: Array<{ tool_use_id: string; is_error?: boolean }> }).content;
    assert.deepEqual(
      blocks.map((b) => [b.tool_use_id, b.is_error ?? false]),
      [['toolu_01A', false]],
    );
    assert.ok(s.screenshot?.id, 'a new screenshot comes back, as Claude expects after an action');
  });

  test('computer_toolset_20260801: click, type and Return in one turn fill and submit the form', async () => {
    const { run, f } = await ctx.open('/type');
    const [x, y] = said('claude', f, { x: 200, y: 116 });
    const { r, s } = await act({
      frame: f.id,
      model: 'claude',
      action: [
        { type: 'text', text: 'I will fill in the name.' },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'left_click',
          toolset_name: 'computer',
          input: { coordinate: [x, y] },
        },
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'type',
          toolset_name: 'computer',
          input: { text: 'Ada Lovelace' },
        },
        { type: 'tool_use', id: 'toolu_3', name: 'key', toolset_name: 'computer', input: { text: 'Return' } },
      ],
    });
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.ran, 3);
    const submit = await ctx.srv.waitForHits(1, { run, type: 'submit' });
    assert.equal(submit[0]?.extra?.value, 'Ada Lovelace');
    assert.equal((s.reply as { content: unknown[] }).content.length, 3, 'one tool_result per tool_use');
  });

  test('left_click_drag reorders a SortableJS list; scroll turns the wheel in the scroll box', async () => {
    const sortable = await ctx.open('/rw/sortable');
    const from = said('claude', sortable.f, { x: 72, y: 152 });
    const to = said('claude', sortable.f, { x: 72, y: 104 + 48 * 4 + 10 });
    const drag = await act({
      frame: sortable.f.id,
      model: 'claude',
      action: { action: 'left_click_drag', start_coordinate: from, coordinate: to },
    });
    assert.equal(drag.s.verdict, 'OK', text(drag.r));
    const acts = await ctx.srv.waitForActions(1, { run: sortable.run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id, acts[0]?.form.to], ['reorder', 'TCK-7737', '4']);
    const box = await ctx.open('/rw/scroll');
    const at = said('claude', box.f, { x: 340, y: 280 });
    const sc = await act({
      frame: box.f.id,
      model: 'claude',
      action: { action: 'scroll', coordinate: at, scroll_direction: 'down', scroll_amount: 2 },
    });
    assert.equal(sc.s.verdict, 'OK', text(sc.r));
    assert.equal(
      await box.page.locator('#box').evaluate((el) => el.scrollTop),
      200,
      'two wheel notches of 100 CSS px',
    );
  });

  test('browser_toolset: javascript_exec is not run, and the actions after it are not run blind', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const [x, y] = said('claude', f, await centre(archiveOf(page, 'TCK-7741')));
    const { r, s } = await act({
      frame: f.id,
      model: 'claude',
      action: [
        {
          type: 'tool_use',
          id: 't1',
          name: 'javascript_exec',
          toolset_name: 'browser',
          input: { text: 'alert(1)' },
        },
        {
          type: 'tool_use',
          id: 't2',
          name: 'left_click',
          toolset_name: 'browser',
          input: { target: { type: 'coordinate', x, y } },
        },
      ],
    });
    assert.equal(r.isError, true);
    assert.deepEqual(
      s.steps.map((st) => st.status),
      ['unsupported', 'not_run'],
    );
    assert.match(s.steps[0]?.message ?? '', /JavaScript/i);
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.actions({ run }).length, 0);
  });

  test('a drag with one end off the image is refused naming input.coordinate; nothing is pressed', async () => {
    const { run, f } = await ctx.open('/rw/sortable');
    const { r, s } = await act({
      frame: f.id,
      model: 'claude',
      action: {
        action: 'left_click_drag',
        start_coordinate: said('claude', f, { x: 72, y: 152 }),
        coordinate: [f.image.width + 50, 10],
      },
    });
    assert.equal(s.verdict, 'BAD_INPUT', text(r));
    assert.equal(s.error?.field, 'input.coordinate');
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.actions({ run }).length, 0);
  });
});

describe('OpenAI (computer_call)', () => {
  test('actions[]: the first click opens a Shoelace menu over the next row; the second click, aimed at that row, is refused', async () => {
    const { run, page, f } = await ctx.open('/rw/components');
    const trigger = (id: string) => page.locator(`#row-${id} sl-dropdown.more [slot=trigger]`).first();
    const a = await centre(trigger('TCK-7741'));
    const b = await centre(trigger('TCK-7742'));
    const { r, s } = await act({
      frame: f.id,
      model: 'openai-cua',
      action: {
        type: 'computer_call',
        call_id: 'call_1',
        pending_safety_checks: [],
        actions: [
          { type: 'click', button: 'left', ...xy(said('openai-cua', f, a)) },
          { type: 'click', button: 'left', ...xy(said('openai-cua', f, b)) },
          { type: 'keypress', keys: ['ESC'] },
        ],
      },
    });
    assert.equal(s.steps[0]?.status, 'done', text(r));
    assert.equal(s.steps[1]?.status, 'refused');
    assert.equal(s.steps[1]?.verdict, 'COVERED', s.steps[1]?.message);
    assert.match(s.steps[1]?.message ?? '', /Archive/);
    assert.equal(s.steps[2]?.status, 'not_run');
    assert.equal(s.verdict, 'COVERED');
    assert.equal((s.reply as { call_id: string }).call_id, 'call_1');
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.actions({ run }).length, 0, 'the menu item under the second point was not clicked');
    assert.equal(ctx.srv.hits({ run, type: 'click' }).length, 1, 'only the first click reached the page');
  });

  test('pending_safety_checks: nothing runs until acknowledged; then the reply echoes them', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const call = {
      type: 'computer_call',
      call_id: 'call_2',
      pending_safety_checks: [{ id: 'sc_1', code: 'malicious_instructions', message: 'Check the page.' }],
      action: {
        type: 'click',
        button: 'left',
        ...xy(said('openai-cua', f, await centre(archiveOf(page, 'TCK-7742')))),
      },
    };
    const blocked = await act({ frame: f.id, model: 'openai-cua', action: call });
    assert.equal(blocked.s.verdict, 'BLOCKED', text(blocked.r));
    assert.equal(blocked.s.error?.code, 'SAFETY_CHECK_PENDING');
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.actions({ run }).length, 0);
    const ok = await act({
      frame: f.id,
      model: 'openai-cua',
      action: call,
      acknowledged_safety_checks: ['sc_1'],
    });
    assert.equal(ok.s.verdict, 'OK', text(ok.r));
    assert.deepEqual(
      (ok.s.reply as { acknowledged_safety_checks: Array<{ id: string }> }).acknowledged_safety_checks.map(
        (c) => c.id,
      ),
      ['sc_1'],
    );
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, 'TCK-7742');
  });

  test('a drag path drops an interact.js card on a zone; keypress ["CTRL","A"] and scroll_y', async () => {
    const { run, f } = await ctx.open('/rw/dropzone');
    const { r, s } = await act({
      frame: f.id,
      model: 'openai-cua',
      action: {
        type: 'computer_call',
        call_id: 'call_3',
        action: {
          type: 'drag',
          path: [
            xy(said('openai-cua', f, { x: 220, y: 240 })),
            xy(said('openai-cua', f, { x: 600, y: 300 })),
            xy(said('openai-cua', f, { x: 660, y: 320 })),
          ],
        },
      },
    });
    assert.equal(s.verdict, 'OK', text(r));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id, acts[0]?.form.zone], ['drop', 'TCK-7737', 'doing']);
  });
});

describe('Gemini (function calls on the 0–999 grid)', () => {
  test('type_text_at clears, types and presses Enter into the field it names', async () => {
    const { run, f } = await ctx.open('/type');
    const [x, y] = said('gemini', f, { x: 200, y: 116 });
    const { r, s } = await act({
      frame: f.id,
      model: 'gemini',
      action: {
        functionCall: { name: 'type_text_at', args: { x, y, text: 'Grace Hopper', press_enter: true } },
      },
    });
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal((await ctx.srv.waitForHits(1, { run, type: 'submit' }))[0]?.extra?.value, 'Grace Hopper');
    const parts = (s.reply as { parts: Array<{ functionResponse: { name: string } }> }).parts;
    assert.equal(parts[0]?.functionResponse.name, 'type_text_at');
  });

  test('open_web_browser is answered and skipped; click (new vocabulary) archives; a safety decision waits for the user', async () => {
    const { run, page, f } = await ctx.open('/rw/list');
    const [x, y] = said('gemini', f, await centre(archiveOf(page, 'TCK-7743')));
    const calls = [
      { functionCall: { name: 'open_web_browser', args: {} } },
      {
        functionCall: {
          name: 'click',
          args: {
            x,
            y,
            safety_decision: { decision: 'require_confirmation', explanation: 'Archiving changes data.' },
          },
        },
      },
    ];
    const blocked = await act({ frame: f.id, model: 'gemini', action: calls });
    assert.equal(blocked.s.error?.code, 'SAFETY_CONFIRMATION_REQUIRED', text(blocked.r));
    const ok = await act({ frame: f.id, model: 'gemini', action: calls, safety_acknowledged: true });
    assert.deepEqual(
      ok.s.steps.map((st) => st.status),
      ['unsupported', 'done'],
      text(ok.r),
    );
    assert.equal(ok.s.verdict, 'OK');
    assert.equal((await ctx.srv.waitForActions(1, { run }))[0]?.id, 'TCK-7743');
    const parts = (
      ok.s.reply as { parts: Array<{ functionResponse: { response: Record<string, unknown> } }> }
    ).parts;
    assert.equal(parts[1]?.functionResponse.response.safety_acknowledgement, 'true');
  });

  test('drag_and_drop moves a card into the other zone', async () => {
    const { run, f } = await ctx.open('/rw/dropzone');
    const [x, y] = said('gemini', f, { x: 220, y: 320 });
    const [dx, dy] = said('gemini', f, { x: 1060, y: 320 });
    const { r, s } = await act({
      frame: f.id,
      model: 'gemini',
      action: { name: 'drag_and_drop', args: { x, y, destination_x: dx, destination_y: dy } },
    });
    assert.equal(s.verdict, 'OK', text(r));
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.id, acts[0]?.form.zone], ['TCK-7738', 'done']);
  });
});

describe('UI-TARS', () => {
  test('UI-TARS (per-mille start_box) archives; UI-TARS-1.5 (<point> in smart-resized px) drags', async () => {
    const list = await ctx.open('/rw/list');
    const [x, y] = said('ui-tars', list.f, await centre(archiveOf(list.page, 'TCK-7744')));
    const v1 = await act({
      frame: list.f.id,
      model: 'ui-tars',
      action: `Thought: Archive TCK-7744.\nAction: click(start_box='(${x},${y})')`,
    });
    assert.equal(v1.s.verdict, 'OK', text(v1.r));
    assert.equal((await ctx.srv.waitForActions(1, { run: list.run }))[0]?.id, 'TCK-7744');
    const sortable = await ctx.open('/rw/sortable');
    const [ax, ay] = said('ui-tars-1.5', sortable.f, { x: 72, y: 104 + 48 * 3 });
    const [bx, by] = said('ui-tars-1.5', sortable.f, { x: 72, y: 104 + 10 });
    const v15 = await act({
      frame: sortable.f.id,
      model: 'ui-tars-1.5',
      action: `Thought: move TCK-7739 to the top.\nAction: drag(start_point='<point>${ax} ${ay}</point>', end_point='<point>${bx} ${by}</point>')`,
    });
    assert.equal(v15.s.verdict, 'OK', text(v15.r));
    const acts = await ctx.srv.waitForActions(1, { run: sortable.run });
    assert.deepEqual([acts[0]?.id, acts[0]?.form.from, acts[0]?.form.to], ['TCK-7739', '3', '0']);
  });

  test('type(content=…\\n) submits; hotkey(key=…) with a key nobody maps is refused naming the call', async () => {
    const { run, f } = await ctx.open('/type');
    const [x, y] = said('ui-tars-1.5', f, { x: 200, y: 116 });
    const typed = await act({
      frame: f.id,
      model: 'ui-tars-1.5',
      action: `Action: click(point='<point>${x} ${y}</point>')\n\ntype(content='Alan Turing\\n')`,
    });
    assert.equal(typed.s.verdict, 'OK', text(typed.r));
    assert.equal((await ctx.srv.waitForHits(1, { run, type: 'submit' }))[0]?.extra?.value, 'Alan Turing');
    const bad = await act({
      frame: f.id,
      model: 'ui-tars-1.5',
      action: "Action: hotkey(key='ctrl hyperdrive')",
    });
    assert.equal(bad.s.error?.code, 'NATIVE_UNKNOWN_KEY', text(bad.r));
    assert.match(bad.s.error?.field ?? '', /hotkey\(key=/);
  });
});

describe('Qwen computer_use', () => {
  test('Qwen2.5-VL (smart-resized px): mouse_move to a card, then left_click_drag from the cursor to a zone', async () => {
    const { run, f } = await ctx.open('/rw/dropzone');
    const [x, y] = said('qwen2.5-vl', f, { x: 220, y: 400 });
    const [dx, dy] = said('qwen2.5-vl', f, { x: 1060, y: 320 });
    const call = (args: Record<string, unknown>) =>
      `<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: args })}\n</tool_call>`;
    const { r, s } = await act({
      frame: f.id,
      model: 'qwen2.5-vl',
      action: `${call({ action: 'mouse_move', coordinate: [x, y] })}\n${call({ action: 'left_click_drag', coordinate: [dx, dy] })}`,
    });
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(s.ran, 2);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.id, acts[0]?.form.zone], ['TCK-7739', 'done']);
  });

  test('Qwen3-VL (0–999): left_click, type and key ["Return"] submit the form', async () => {
    const { run, f } = await ctx.open('/type');
    const [x, y] = said('qwen3-vl', f, { x: 200, y: 116 });
    const { r, s } = await act({
      frame: f.id,
      model: 'qwen3-vl',
      action: [
        { name: 'computer_use', arguments: { action: 'left_click', coordinate: [x, y] } },
        { name: 'computer_use', arguments: { action: 'type', text: 'Katherine Johnson' } },
        { name: 'computer_use', arguments: { action: 'key', keys: ['Return'] } },
      ],
    });
    assert.equal(s.verdict, 'OK', text(r));
    assert.equal(
      (await ctx.srv.waitForHits(1, { run, type: 'submit' }))[0]?.extra?.value,
      'Katherine Johnson',
    );
  });
});

describe('bad input, in each family’s own words', () => {
  test('an unknown action, a missing coordinate, a coordinate off the grid: refused by field, nothing done', async () => {
    const { run, f } = await ctx.open('/rw/list');
    const cases: Array<[string, unknown, string, RegExp]> = [
      [
        'openai-cua',
        { type: 'computer_call', call_id: 'c', action: { type: 'teleport', x: 1, y: 2 } },
        'NATIVE_UNKNOWN_ACTION',
        /action\.type/,
      ],
      [
        'qwen3-vl',
        '<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click_drag"}}\n</tool_call>',
        'NATIVE_MISSING_FIELD',
        /coordinate/,
      ],
      ['gemini', { name: 'click_at', args: { x: 1200, y: 10 } }, 'NATIVE_OFF_GRID', /^args\.x$/],
      ['claude', { action: 'key', text: 'ctrl+Hyper_Q' }, 'NATIVE_UNKNOWN_KEY', /input\.text/],
    ];
    for (const [model, action, code, field] of cases) {
      const { r, s } = await act({ frame: f.id, model, action });
      assert.equal(s.verdict, 'BAD_INPUT', `${model}: ${text(r)}`);
      assert.equal(s.error?.code, code, `${model}: ${text(r)}`);
      assert.match(s.error?.field ?? '', field, `${model}: ${text(r)}`);
      assert.match(text(r), /No action was run/);
    }
    await new Promise((res) => setTimeout(res, 300));
    assert.equal(ctx.srv.hits({ run }).length, 0, 'nothing reached the page');
  });
});

function xy([x, y]: [number, number]) {
  return { x, y };
}
