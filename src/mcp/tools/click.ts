import { z } from 'zod';
import type { ClickRequest } from '../../actions/click.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { modifiersField, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const clickTool = defineTool({
  name: 'browser_click',
  title: 'Click, checked against the screenshot',
  description:
    'Click one target: {frame, x, y} in pixels of that screenshot, or {frame, box}, or {frame, mark}, or {frame, model, model_output}. Before the click trueclick checks that the element under the point is the one that was there in the frame (and fits `expect`); if the page changed it does not click and says why (STALE_TARGET, COVERED, MISSED_TARGET, FRAME_MISMATCH), with `changes` naming what differs. Verdict OK names the element that received the trusted click (inside iframes and web components too); a click that navigates is OK and `navigation` says where the page went; a dialog, tab or file chooser it opened is reported.',
  type: 'input',
  inputSchema: {
    ...targetShape,
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left).'),
    click_count: z
      .number()
      .int()
      .min(1)
      .max(3)
      .optional()
      .describe('2 for a double click, 3 for a triple click.'),
    modifiers: modifiersField,
    strict: z
      .boolean()
      .optional()
      .describe('Refuse on any change in the row since the frame, live text too (a price you read).'),
  },
  outputSchema: reportShape,
  undone: 'Nothing was clicked.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    return reportResult(await session.click(request<ClickRequest>(args)));
  },
});
