import { z } from 'zod';
import type { ActRequest } from '../../actions/act.js';
import { familyReply } from '../../actions/act-reply.js';
import { effectsOf } from '../../actions/page-watch.js';
import { NATIVE_LIMITS, NATIVE_MODELS } from '../../native/index.js';
import { frameFacts, frameOutput } from '../frame-result.js';
import { ACTION_VERDICTS } from '../outcome.js';
import { request } from '../report.js';
import { ResponseBuilder } from '../response.js';
import { expectField, frameField, MAX_SHOWN_SIDE } from '../target-schema.js';
import { defineTool } from '../tool.js';

const stepSchema = z.object({
  index: z.number().int(),
  name: z.string().describe('The action as the model named it.'),
  source: z.string().describe('Where it was in `action`.'),
  kind: z.string(),
  status: z.enum(['done', 'refused', 'not_run', 'unsupported', 'finished']),
  verdict: z.enum(ACTION_VERDICTS).optional(),
  message: z.string(),
  report: z.looseObject({}).optional().describe('The checked action’s report, as browser_click gives it.'),
  effects: z.looseObject({}).optional(),
  error: z.object({ code: z.string(), kind: z.string() }).optional(),
});

export const actTool = defineTool({
  name: 'browser_act',
  title: 'Run a computer-use model’s own action, checked',
  description:
    "Runs what a computer-use model emitted, as it is: Claude's computer tool (computer_20250124/20251124 `input`, or computer_toolset_20260801 / browser_toolset_20260801 tool_use blocks, several in a turn), an OpenAI computer_call (`action` or `actions[]`), Gemini function calls (click_at, type_text_at, … or click, hotkey, …), UI-TARS action text (click(start_box='…')), or Qwen computer_use <tool_call>s. Coordinates are read in the family's own space against `frame` (the screenshot the model saw). Each action on a point is checked like browser_click; once one is refused, the rest are not run. The answer lists what ran, what was refused and why, carries a new screenshot, and the reply the family expects (`reply`).",
  type: 'input',
  inputSchema: {
    frame: frameField,
    model: z
      .enum(NATIVE_MODELS as unknown as [string, ...string[]])
      .describe('The model family whose action this is (its format, coordinate space and resize rule).'),
    action: z
      .union([
        z.string().max(NATIVE_LIMITS.rawChars),
        z.record(z.string(), z.unknown()),
        z.array(z.unknown()).max(NATIVE_LIMITS.actions),
      ])
      .describe(
        'What the model emitted: the tool_use block(s), computer_call, function call(s) or its raw text.',
      ),
    expect: expectField,
    shown_width: z
      .number()
      .min(16)
      .max(MAX_SHOWN_SIDE)
      .optional()
      .describe('Width in px at which the client showed the screenshot to the model, if not as sent.'),
    shown_height: z.number().min(16).max(MAX_SHOWN_SIDE).optional().describe('Its height, px.'),
    acknowledged_safety_checks: z
      .array(z.string().max(NATIVE_LIMITS.idChars))
      .max(NATIVE_LIMITS.safetyChecks)
      .optional()
      .describe('OpenAI: ids of pending_safety_checks the user acknowledged.'),
    safety_acknowledged: z
      .boolean()
      .optional()
      .describe('Gemini: the user confirmed what safety_decision asked about.'),
    screenshot: z.boolean().optional().describe('Take a new screenshot after the actions (default true).'),
  },
  outputSchema: {
    family: z.string().optional(),
    model: z.string().optional(),
    frame: z.string().nullable().optional().describe('The frame the coordinates were read in.'),
    steps: z.array(stepSchema).optional(),
    ran: z.number().int().optional(),
    refused: z.number().int().optional(),
    notRun: z.number().int().optional(),
    done: z.object({ status: z.string().optional(), text: z.string().optional() }).optional(),
    zooms: z.array(z.string()).optional().describe('Frames made by zoom actions.'),
    screenshot: frameOutput.frame,
    reply: z
      .looseObject({})
      .optional()
      .describe('What the family expects back, without the image (it is in this result’s content).'),
  },
  undone: 'No action was run.',
  async handle(session, args, { signal }) {
    const r = await session.act(request<ActRequest>(args), signal);
    const { verdict } = r;
    const lines = r.steps.map((s) => `${s.index + 1}. ${s.name} (${s.source}): ${s.status}. ${s.message}`);
    const summary = `${r.ran} of ${r.steps.length} action(s) ran${r.refused ? `, ${r.refused} refused` : ''}${r.notRun ? `, ${r.notRun} not run` : ''}.`;
    const b = new ResponseBuilder().line(`${verdict}: ${summary}`);
    for (const l of lines) b.line(l);
    for (const z of r.zooms) b.image(z.base64, z.mimeType);
    if (r.screenshot) {
      const f = r.screenshot.frame;
      b.line(
        `New screenshot: frame ${f.id} (${f.geometry.image.width}×${f.geometry.image.height} px); read the next action's coordinates off it.`,
      );
      b.image(r.screenshot.base64, r.screenshot.mimeType);
    }
    b.structuredContent({
      verdict,
      message: `${summary}${r.steps.find((s) => s.status !== 'done')?.message ? ` ${r.steps.find((s) => s.status !== 'done')?.message}` : ''}`,
      family: r.family,
      model: r.model,
      frame: r.frame,
      steps: r.steps,
      ran: r.ran,
      refused: r.refused,
      notRun: r.notRun,
      ...(r.done ? { done: r.done } : {}),
      zooms: r.zooms.map((z) => z.frame.id),
      ...(r.screenshot ? { screenshot: frameFacts(r.screenshot.frame) } : {}),
      ...effectsOf(r),
      reply: familyReply(r),
    });
    if (verdict !== 'OK') b.isError();
    return b.build();
  },
});
