import { z } from 'zod';
import type { ClickRequest } from '../../actions/verbs/click.js';
import { documented } from '../field-docs.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { modifiersField, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const clickTool = defineTool({
  name: 'browser_click',
  title: 'Click, checked against the screenshot',
  description:
    'Click {frame, x, y} (px of that screenshot), a `box`, or a `model`’s `model_output`. Not clicked if the element there changed since the frame: the answer says why and what to do.',
  type: 'input',
  inputSchema: {
    ...targetShape,
    button: documented(z.enum(['left', 'right', 'middle']).optional(), 'The mouse button (default left).'),
    click_count: documented(
      z.number().int().min(1).max(3).optional(),
      'Presses in a row at the point: 1 a click (default), 2 a double click, 3 a triple click.',
    ),
    modifiers: modifiersField,
    strict: z.boolean().optional().describe('Refuse on any change in its row, live text too.'),
  },
  outputSchema: reportShape,
  undone: 'Nothing was clicked.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    return reportResult(await session.click(request<ClickRequest>(args)));
  },
});
