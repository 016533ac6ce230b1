import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { claudeStandIn, runClaudeAgent } from '../../examples/agents/claude.js';
import { geminiStandIn, runGeminiAgent } from '../../examples/agents/gemini.js';
import type { AgentSummary } from '../../examples/agents/loop.js';
import { openaiStandIn, runOpenAIAgent } from '../../examples/agents/openai.js';
import { qwenStandIn, runQwenAgent } from '../../examples/agents/qwen.js';
import { type PlanStep, pagePerception, type Thing } from '../../examples/agents/stand-in.js';
import { runUiTarsAgent, uiTarsStandIn } from '../../examples/agents/ui-tars.js';
import { cmd, corpusForFile } from '../realweb/harness.js';

// The agent-loop examples, one per model family, run against the real-web corpus with a scripted stand-in
// for the model. What happened is read from the fixture server's own logs (srv.actions: the requests the
// pages made; srv.hits: every pointerdown and click the page saw), never from trueclick's answers alone.

const ctx = corpusForFile();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a corpus page (or a plain fixture page) in a fresh run and returns what the stand-in needs. */
async function open(path: string, query: Record<string, string | number> = {}) {
  const run = `${path.replace(/\W+/g, '-')}-${++opened}`;
  await ctx.tc.navigate(ctx.srv.url(path, { run, ...query }));
  const page = await ctx.rw.page();
  if (path.startsWith('/rw/'))
    await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true);
  return { run, page, perceive: pagePerception(ctx.tc) };
}
let opened = 0;

/** The actions the server recorded for a run, after a moment for a late request to arrive. */
async function actionsAfter(run: string, ms = 250) {
  await sleep(ms);
  return ctx.srv.actions({ run }).map((a) => `${a.do} ${a.id}`);
}

const archive = (id: string): Thing => ({ role: 'link', name: 'Archive', within: id });
const ARCHIVE_7741: PlanStep[] = [{ do: 'click', target: archive('TCK-7741') }];
const handle = (id: string): Thing => ({ selector: `#row-${id} .handle` });

/** The page changes while the model "thinks", once: the first answer was read off the old screenshot. */
function onceWhileThinking(change: () => Promise<unknown>) {
  return async (turn: number) => {
    if (turn === 1) await change();
  };
}

/** The form on /type: Name, Notes, Submit (three controls spread over the page, left column). */
const CONTACT_FORM: PlanStep[] = [
  { do: 'fill', target: { role: 'textbox', name: 'Name' }, text: 'Ada Lovelace' },
  { do: 'fill', target: { role: 'textbox', name: 'Notes' }, text: 'VPN drops every hour' },
  { do: 'click', target: { role: 'button', name: 'Submit' } },
];

function assertDone(s: AgentSummary) {
  assert.equal(s.final, 'done', JSON.stringify({ ...s, messages: undefined }));
}

/**
 * The wrong-units run on /type: misses on Name and Notes are answered with where the element was (the
 * stand-in then clicks there), the third miss is FRAME_MISMATCH, the loop reads the model's numbers at the
 * width it evidently used, and Submit lands. No click ever reached anything but the three controls.
 */
async function assertUnitsFixed(run: string, s: AgentSummary, width: number | undefined) {
  assertDone(s);
  assert.deepEqual(
    s.verdicts,
    ['MISSED_TARGET', 'OK', 'MISSED_TARGET', 'OK', 'FRAME_MISMATCH', 'OK'],
    JSON.stringify(s.verdicts),
  );
  assert.equal(s.shownWidth, width);
  await sleep(200);
  // A triple click (Claude selects a field's text before typing) is three presses on the same control.
  const pressed = ctx.srv.hits({ run, type: 'pointerdown' }).map((h) => h.id);
  const controls = pressed.filter((id, i) => id !== pressed[i - 1]);
  assert.deepEqual(
    controls,
    ['name', 'notes', 'submit'],
    'each press was on the control meant, after its miss',
  );
  const submits = ctx.srv.hits({ run, type: 'submit' });
  assert.equal(submits.length, 1);
  assert.equal(submits[0]?.extra?.value, 'Ada Lovelace');
  assert.equal(submits[0]?.extra?.notes, 'VPN drops every hour');
  assert.match(JSON.stringify(s.messages), /in your coordinates/, 'the model was told where it missed');
}

describe('Claude (computer toolset: tool_use blocks, tool_result replies)', () => {
  test('still page: left_click_drag by the SortableJS handle moves TCK-7737 to slot 4', async () => {
    const { run, perceive } = await open('/rw/sortable');
    const s = await runClaudeAgent({
      session: ctx.tc,
      task: 'Move TCK-7737 below TCK-7740.',
      client: claudeStandIn({
        perceive,
        plan: [{ do: 'drag', from: handle('TCK-7737'), to: handle('TCK-7740') }],
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['OK']);
    const acts = ctx.srv.actions({ run });
    assert.deepEqual(
      acts.map((a) => [a.do, a.id, a.form.from, a.form.to]),
      [['reorder', 'TCK-7737', '1', '4']],
    );
  });

  test('rows prepended while the model thinks: STALE_TARGET, the new screenshot, then TCK-7741 is archived', async () => {
    const { run, page, perceive } = await open('/rw/list', { keys: 'index' });
    const s = await runClaudeAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7741.',
      client: claudeStandIn({
        perceive,
        plan: ARCHIVE_7741,
        think: onceWhileThinking(() => cmd(page, 'prepend', 2)),
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['STALE_TARGET', 'OK']);
    assert.deepEqual(await actionsAfter(run), ['archive TCK-7741'], 'no other ticket was ever touched');
  });

  test('a client that showed a 768 px image: misses, FRAME_MISMATCH, then shown_width 768 and the form is sent', async () => {
    const { run, perceive } = await open('/type');
    const s = await runClaudeAgent({
      session: ctx.tc,
      task: 'Fill in the contact form for Ada Lovelace (notes: VPN drops every hour) and send it.',
      client: claudeStandIn({ perceive, plan: CONTACT_FORM, misreads: { width: 768 } }),
    });
    await assertUnitsFixed(run, s, 768);
  });
  test('a model writing 2560-wide pixels: FRAME_MISMATCH, no shown_width fits Claude’s resize, so it is told to re-read', async () => {
    const { run, perceive } = await open('/type');
    const s = await runClaudeAgent({
      session: ctx.tc,
      task: 'Fill in the contact form for Ada Lovelace (notes: VPN drops every hour) and send it.',
      client: claudeStandIn({ perceive, plan: CONTACT_FORM, misreads: { width: 2560, raw: true } }),
    });
    await assertUnitsFixed(run, s, undefined);
    assert.match(JSON.stringify(s.messages), /Re-read the screenshot/);
  });

  test('a confirm() opened by the mouse arriving: the loop asks the user, answers it, and the click is sent after', async () => {
    const { run, page, perceive } = await open('/blank');
    // A page whose button asks on hover (the test adds the handler through its own Playwright page).
    await page.evaluate(() => {
      const only = document.getElementById('only');
      only?.addEventListener('mouseover', () => confirm('Continue without saving?'), { once: true });
    });
    let pressesWhenAsked = -1;
    const s = await runClaudeAgent({
      session: ctx.tc,
      task: 'Press Continue.',
      client: claudeStandIn({
        perceive,
        plan: [{ do: 'click', target: { role: 'button', name: 'Continue' } }],
      }),
      confirm: async (r) => {
        assert.equal(r.kind, 'dialog');
        assert.match(r.message, /Continue without saving\?/);
        pressesWhenAsked = ctx.srv.hits({ run, type: 'pointerdown' }).length;
        return true;
      },
    });
    assertDone(s);
    assert.equal(pressesWhenAsked, 0, 'nothing was pressed while the dialog was up');
    // The dialog the mouse's arrival opened refuses the click (BLOCKED, the dialog named); after the answer, OK.
    assert.equal(s.verdicts.join(' '), 'BLOCKED OK');
    await sleep(200);
    assert.deepEqual(
      ctx.srv.hits({ run, type: 'click' }).map((h) => h.id),
      ['only'],
    );
  });
});

describe('OpenAI (Responses API: computer_call items, computer_call_output replies)', () => {
  test('still page: a drag path drops the interact.js card TCK-7737 on the Done zone', async () => {
    const { run, perceive } = await open('/rw/dropzone');
    const s = await runOpenAIAgent({
      session: ctx.tc,
      task: 'Move TCK-7737 to Done.',
      client: openaiStandIn({
        perceive,
        plan: [{ do: 'drag', from: { selector: '#card-TCK-7737' }, to: { selector: '#zone-done' } }],
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['OK']);
    const acts = ctx.srv.actions({ run });
    assert.deepEqual(
      acts.map((a) => [a.do, a.id, a.form.zone]),
      [['drop', 'TCK-7737', 'done']],
    );
  });

  test('rows prepended while the model thinks: STALE_TARGET, then the re-asked model archives TCK-7741', async () => {
    const { run, page, perceive } = await open('/rw/list', { keys: 'index' });
    const s = await runOpenAIAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7741.',
      client: openaiStandIn({
        perceive,
        plan: ARCHIVE_7741,
        think: onceWhileThinking(() => cmd(page, 'prepend', 2)),
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['STALE_TARGET', 'OK']);
    assert.deepEqual(await actionsAfter(run), ['archive TCK-7741'], 'no other ticket was ever touched');
  });

  test('a model answering in device pixels (2560 wide): misses, FRAME_MISMATCH, then shown_width 2560', async () => {
    const { run, perceive } = await open('/type');
    const s = await runOpenAIAgent({
      session: ctx.tc,
      task: 'Fill in the contact form for Ada Lovelace (notes: VPN drops every hour) and send it.',
      client: openaiStandIn({ perceive, plan: CONTACT_FORM, misreads: { width: 2560 } }),
    });
    await assertUnitsFixed(run, s, 2560);
  });

  test('pending_safety_checks: confirm() is asked before anything runs; after yes the call runs acknowledged', async () => {
    const { run, perceive } = await open('/rw/list');
    let askedWhenEmpty = false;
    const s = await runOpenAIAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7742.',
      client: openaiStandIn({
        perceive,
        plan: [{ do: 'click', target: archive('TCK-7742'), sensitive: 'Archiving changes data.' }],
      }),
      confirm: async (r) => {
        assert.equal(r.kind, 'safety');
        assert.match(r.message, /Archiving changes data/);
        await sleep(200);
        askedWhenEmpty =
          ctx.srv.actions({ run }).length === 0 && ctx.srv.hits({ run, type: 'pointerdown' }).length === 0;
        return true;
      },
    });
    assertDone(s);
    assert.ok(askedWhenEmpty, 'nothing reached the page before the user said yes');
    assert.deepEqual(s.verdicts, ['BLOCKED', 'OK']);
    assert.equal(s.asked.length, 1);
    assert.deepEqual(await actionsAfter(run), ['archive TCK-7742']);
    const output = s.messages.find(
      (m): m is { type: string; acknowledged_safety_checks: Array<{ code: string }> } =>
        (m as { type?: string }).type === 'computer_call_output',
    );
    assert.equal(
      output?.acknowledged_safety_checks[0]?.code,
      'sensitive_domain',
      'the reply echoes the check',
    );
  });
});

describe('Gemini (function_call parts, FunctionResponse parts with url and screenshot)', () => {
  test('still page: type_text_at fills Name, click_at sends the form', async () => {
    const { run, perceive } = await open('/type');
    const s = await runGeminiAgent({
      session: ctx.tc,
      task: 'Fill in the contact form for Grace Hopper and send it.',
      client: geminiStandIn({
        perceive,
        plan: [
          { do: 'fill', target: { role: 'textbox', name: 'Name' }, text: 'Grace Hopper' },
          { do: 'click', target: { role: 'button', name: 'Submit' } },
        ],
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['OK', 'OK']);
    const submits = await ctx.srv.waitForHits(1, { run, type: 'submit' });
    assert.equal(submits[0]?.extra?.value, 'Grace Hopper');
  });

  test('rows re-sorted while the model thinks (rw.resort): STALE_TARGET, then TCK-7741 is archived', async () => {
    const { run, page, perceive } = await open('/rw/list', { keys: 'index' });
    const s = await runGeminiAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7741.',
      client: geminiStandIn({
        perceive,
        plan: ARCHIVE_7741,
        think: onceWhileThinking(() => cmd(page, 'resort')),
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['STALE_TARGET', 'OK']);
    assert.deepEqual(await actionsAfter(run), ['archive TCK-7741'], 'no other ticket was ever touched');
  });

  test('safety_decision: a no leaves the page untouched; a yes runs the call and acknowledges it', async () => {
    const plan: PlanStep[] = [
      { do: 'click', target: archive('TCK-7743'), sensitive: 'Archiving changes the ticket.' },
    ];
    const no = await open('/rw/list');
    const declined = await runGeminiAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7743.',
      client: geminiStandIn({ perceive: no.perceive, plan }),
      confirm: async () => false,
    });
    assert.equal(declined.final, 'declined');
    assert.deepEqual(declined.verdicts, ['BLOCKED']);
    assert.deepEqual(await actionsAfter(no.run), []);
    assert.equal(ctx.srv.hits({ run: no.run, type: 'pointerdown' }).length, 0, 'not even a press');

    const yes = await open('/rw/list');
    let before = -1;
    const s = await runGeminiAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7743.',
      client: geminiStandIn({ perceive: yes.perceive, plan }),
      confirm: async (r) => {
        assert.match(r.message, /Archiving changes the ticket/);
        await sleep(200);
        before = ctx.srv.actions({ run: yes.run }).length + ctx.srv.hits({ run: yes.run }).length;
        return true;
      },
    });
    assertDone(s);
    assert.equal(before, 0, 'nothing reached the page before the yes');
    assert.deepEqual(s.verdicts, ['BLOCKED', 'OK']);
    assert.deepEqual(await actionsAfter(yes.run), ['archive TCK-7743']);
    assert.match(JSON.stringify(s.messages), /"safety_acknowledgement":"true"/);
  });
});

describe('UI-TARS-1.5 ("Thought / Action" text, the next screenshot as the user turn)', () => {
  test('still page: drag(start_point, end_point) moves TCK-7739 to the top of the SortableJS list', async () => {
    const { run, perceive } = await open('/rw/sortable');
    const s = await runUiTarsAgent({
      session: ctx.tc,
      task: 'Move TCK-7739 to the top of the list.',
      client: uiTarsStandIn({
        perceive,
        plan: [
          { do: 'drag', from: handle('TCK-7739'), to: { ...handle('TCK-7736'), nudge: { x: 0, y: -10 } } },
        ],
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['OK', 'OK'], 'the drag, then finished()');
    const acts = ctx.srv.actions({ run });
    assert.deepEqual(
      acts.map((a) => [a.do, a.id, a.form.from, a.form.to]),
      [['reorder', 'TCK-7739', '3', '0']],
    );
  });

  test('rows prepended while the model thinks: STALE_TARGET, then TCK-7741 is archived', async () => {
    const { run, page, perceive } = await open('/rw/list', { keys: 'index' });
    const s = await runUiTarsAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7741.',
      client: uiTarsStandIn({
        perceive,
        plan: ARCHIVE_7741,
        think: onceWhileThinking(() => cmd(page, 'prepend', 2)),
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['STALE_TARGET', 'OK', 'OK']);
    assert.deepEqual(await actionsAfter(run), ['archive TCK-7741'], 'no other ticket was ever touched');
  });

  test('a button that jumps away on press: LANDED_ELSEWHERE, the model looks again and clicks it where it is', async () => {
    const { run, perceive } = await open('/moving');
    const s = await runUiTarsAgent({
      session: ctx.tc,
      task: 'Press "Move me".',
      client: uiTarsStandIn({
        perceive,
        plan: [{ do: 'click', target: { role: 'button', name: 'Move me' } }],
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['LANDED_ELSEWHERE', 'OK', 'OK']);
    await sleep(200);
    assert.deepEqual(
      ctx.srv.hits({ run, type: 'click' }).map((h) => h.id),
      ['mover'],
      'the first release was stopped (no click on #behind); the second click reached the button',
    );
  });
});

describe('Qwen3-VL (<tool_call> text on the 0–999 grid, the next screenshot as the user turn)', () => {
  test('still page: mouse_move, then left_click_drag drops TCK-7739 on Doing', async () => {
    const { run, perceive } = await open('/rw/dropzone');
    const s = await runQwenAgent({
      session: ctx.tc,
      task: 'Move TCK-7739 to Doing.',
      client: qwenStandIn({
        perceive,
        plan: [{ do: 'drag', from: { selector: '#card-TCK-7739' }, to: { selector: '#zone-doing' } }],
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['OK', 'OK']);
    assert.deepEqual(
      ctx.srv.actions({ run }).map((a) => [a.do, a.id, a.form.zone]),
      [['drop', 'TCK-7739', 'doing']],
    );
  });

  test('rows prepended while the model thinks: STALE_TARGET, then TCK-7741 is archived', async () => {
    const { run, page, perceive } = await open('/rw/list', { keys: 'index' });
    const s = await runQwenAgent({
      session: ctx.tc,
      task: 'Archive ticket TCK-7741.',
      client: qwenStandIn({
        perceive,
        plan: ARCHIVE_7741,
        think: onceWhileThinking(() => cmd(page, 'prepend', 2)),
      }),
    });
    assertDone(s);
    assert.deepEqual(s.verdicts, ['STALE_TARGET', 'OK', 'OK']);
    assert.deepEqual(await actionsAfter(run), ['archive TCK-7741'], 'no other ticket was ever touched');
  });

  test('confirm() dialog: the loop asks the user and answers it with handleDialog (no, then yes)', async () => {
    const plan: PlanStep[] = [{ do: 'click', target: { role: 'button', name: 'Delete TCK-7741' } }];
    for (const answer of [false, true]) {
      const { run, perceive } = await open('/rw/dialogs');
      const s = await runQwenAgent({
        session: ctx.tc,
        task: 'Delete ticket TCK-7741.',
        client: qwenStandIn({ perceive, plan }),
        confirm: async (r) => {
          assert.equal(r.dialog?.message, 'Delete TCK-7741?');
          return answer;
        },
      });
      assertDone(s);
      assert.equal(s.asked.length, 1);
      assert.deepEqual(await actionsAfter(run), [answer ? 'delete TCK-7741' : 'kept TCK-7741']);
    }
  });
});
