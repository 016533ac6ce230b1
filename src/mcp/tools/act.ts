import { z } from 'zod';
import { type ActRequest, runAct } from '../../actions/act/act.js';
import { familyReply } from '../../actions/act/act-reply.js';
import { effectsOf } from '../../actions/session/page-watch.js';
import { NATIVE_LIMITS, NATIVE_MODELS } from '../../native/index.js';
import { documented } from '../field-docs.js';
import { frameFacts, frameOutput } from '../frame-result.js';
import { ACTION_VERDICTS } from '../outcome.js';
import { request } from '../report.js';
import { ResponseBuilder } from '../response.js';
import { expectField, followField, frameField, MAX_SHOWN_SIDE } from '../target-schema.js';
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
  effect: z.looseObject({}).optional().describe('What the press did: navigated, opened, changed or none.'),
  error: z.object({ code: z.string(), kind: z.string() }).optional(),
});

export const actTool = defineTool({
  name: 'browser_act',
  title: 'Run a computer-use model’s own action, checked',
  description:
    'Run a computer-use model’s own action(s) as emitted (Claude computer tool, OpenAI computer_call, Gemini, UI-TARS, Qwen), read against `frame`, each point checked as browser_click.',
  type: 'input',
  cap: 'native',
  inputSchema: {
    frame: frameField,
    model: documented(
      z.enum(NATIVE_MODELS as unknown as [string, ...string[]]),
      'The model whose action this is: its family’s format is how `action` is read, and its coordinate convention how the numbers in it are (docs/presets.md).',
    ),
    action: z
      .union([
        z.string().max(NATIVE_LIMITS.rawChars),
        z.record(z.string(), z.unknown()),
        z.array(z.unknown()).max(NATIVE_LIMITS.actions),
      ])
      .describe('Its tool_use block(s), computer_call, function call(s) or raw text.'),
    expect: expectField,
    follow: followField,
    shown_width: z
      .number()
      .min(16)
      .max(MAX_SHOWN_SIDE)
      .optional()
      .describe('Width, px, the client resized the screenshot to.'),
    shown_height: documented(
      z.number().min(16).max(MAX_SHOWN_SIDE).optional(),
      'Height, px, the client resized the screenshot to; default: in proportion to shown_width.',
    ),
    acknowledged_safety_checks: z
      .array(z.string().max(NATIVE_LIMITS.idChars))
      .max(NATIVE_LIMITS.safetyChecks)
      .optional()
      .describe('OpenAI: acknowledged safety check ids.'),
    safety_acknowledged: z.boolean().optional().describe('Gemini: the user confirmed the safety decision.'),
    screenshot: z.boolean().optional().describe('Screenshot after (default true).'),
  },
  outputSchema: {
    family: z
      .string()
      .optional()
      .describe('The action format it was read as: anthropic, openai, gemini, ui-tars or qwen.'),
    model: z.string().optional().describe('The `model` given.'),
    frame: z.string().nullable().optional().describe('The frame the coordinates were read in.'),
    steps: z
      .array(stepSchema)
      .optional()
      .describe(
        'One per action of the batch, in order: {index (from 0), name and source (the action as the model named it, and where it was in `action`), kind, status (done; refused: failed its checks or an error; not_run: an earlier one failed, or the call was cancelled; unsupported; finished: the model said it is done or needs the user), verdict, message, report (a checked action’s, as browser_click answers), effects (a dialog, tab or file chooser it opened), effect (what its press did), error {code, kind}}.',
      ),
    ran: z.number().int().optional().describe('How many actions ran (status done).'),
    refused: z.number().int().optional().describe('How many were refused.'),
    notRun: z.number().int().optional().describe('How many were not run, after one that failed.'),
    done: z
      .object({ status: z.string().optional(), text: z.string().optional() })
      .optional()
      .describe(
        'The model said it is finished or needs the user (finished, terminate, answer, call_user): {status (success, failure or needs_user), text (its answer)}.',
      ),
    zooms: z.array(z.string()).optional().describe('Frames made by zoom actions.'),
    screenshot: frameOutput.frame.describe(
      'The frame taken after the batch, as browser_screenshot’s `frame` (its image is in this result’s content): read the next action’s coordinates off it.',
    ),
    reply: z
      .looseObject({})
      .optional()
      .describe('What the family expects back, without the image (it is in this result’s content).'),
  },
  undone: 'No action was run.',
  async handle(session, args, { signal }) {
    const r = await runAct(session, request<ActRequest>(args), signal);
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
