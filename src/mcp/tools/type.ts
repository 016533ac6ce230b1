import { z } from 'zod';
import { errorResult, ResponseBuilder } from '../response.js';
import { targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';
import { reportResult, toClickRequest } from './click.js';

export const typeTool = defineTool({
  name: 'browser_type',
  title: 'Type text',
  description:
    'Type text into the focused element, or first click a target (same fields and checks as browser_click) and type there. Nothing is typed if that click is refused.',
  inputSchema: {
    text: z.string().describe('Text to type.'),
    submit: z.boolean().optional().describe('Press Enter after typing.'),
    ...targetShape,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handle(session, args) {
    const { text, submit, ...target } = args;
    try {
      const req = toClickRequest(target);
      const hasTarget = ['x', 'y', 'box', 'mark', 'model_output'].some((k) => k in req);
      const r = await session.type(text, { submit: submit ?? false, ...(hasTarget ? { target: req } : {}) });
      if (r.click && r.click.verdict !== 'OK') {
        return reportResult(r.click, true).line('Nothing was typed.').build();
      }
      const where = r.click
        ? ` into ${r.click.hitNow?.tag ?? 'the element'} clicked at CSS (${r.click.dispatched?.x}, ${r.click.dispatched?.y})`
        : ' into the focused element';
      return new ResponseBuilder()
        .line(`Typed ${JSON.stringify(text)}${where}${submit ? ' and pressed Enter' : ''}.`)
        .structuredContent({ typed: text, submitted: Boolean(submit), click: r.click ?? null })
        .build();
    } catch (err) {
      return errorResult(err, { typed: null });
    }
  },
});
