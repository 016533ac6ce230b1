import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/session/page-watch.js';
import type { ClickRequest } from '../../actions/verbs/click.js';
import { typeOutcome } from '../../actions/verbs/keys.js';
import { documented } from '../field-docs.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { ResponseBuilder } from '../response.js';
import { hasTarget, MAX_TEXT, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const typeTool = defineTool({
  name: 'browser_type',
  title: 'Type text',
  description:
    'Type `text` into the focused element, or into a target clicked first (as browser_click; nothing typed if refused).',
  type: 'input',
  inputSchema: {
    text: documented(
      z.string().max(MAX_TEXT),
      'The text, typed as key events (up to 10,000 characters) into the focused element, or into the target once it was clicked.',
    ),
    submit: z.boolean().optional().describe('Press Enter after.'),
    clear: z.boolean().optional().describe('Empty the field first.'),
    ...targetShape,
  },
  outputSchema: {
    typed: z.number().int().nullable().optional().describe('Characters typed.'),
    submitted: z
      .boolean()
      .optional()
      .describe('Enter was pressed after the text (submit was asked and all of the text was typed).'),
    click: z
      .looseObject(reportShape)
      .nullable()
      .optional()
      .describe('The click on the target, if one was given.'),
    ...reportShape,
  },
  undone: 'Nothing was typed.',
  refusalShape: { typed: null, ...NO_DISPATCH },
  async handle(session, args, { signal }) {
    const { text, submit, clear, ...target } = args;
    const req = request<ClickRequest>(target);
    const r = await session.type(text, {
      submit: submit ?? false,
      clear: clear ?? false,
      signal,
      ...(hasTarget(req as Record<string, unknown>) ? { target: req } : {}),
    });
    if (r.click && r.click.verdict !== 'OK') return reportResult(r.click, ['Nothing was typed.']);
    const said = typeOutcome(r, text);
    const message = `${said.message}${effectsSentence(r)}`;
    return new ResponseBuilder()
      .line(message)
      .structuredContent({
        verdict: said.verdict,
        message,
        typed: r.typed,
        submitted: r.submitted,
        click: r.click ?? null,
        ...effectsOf(r),
      })
      .build();
  },
});
