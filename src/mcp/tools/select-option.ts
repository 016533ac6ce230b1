import { z } from 'zod';
import type { ClickRequest } from '../../actions/click.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const selectOptionTool = defineTool({
  name: 'browser_select_option',
  title: 'Pick options of a native select, checked',
  description:
    'A native <select> opens a popup the screenshot cannot show, so do not click it: target the select (same fields as browser_click) and pass the options to pick by label or value. The point is checked against the frame first; the answer lists the options now selected. For a custom dropdown (a div or web component), click it and then click the option instead.',
  type: 'input',
  inputSchema: {
    ...targetShape,
    values: z
      .array(z.string().max(500))
      .min(1)
      .max(100)
      .describe('Options to select, each by its visible label or its value; several for a multiple select.'),
  },
  outputSchema: {
    ...reportShape,
    selected: z
      .array(z.object({ value: z.string(), label: z.string() }))
      .optional()
      .describe('The options selected after the call.'),
  },
  undone: 'Nothing was selected.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    const { values, ...target } = args;
    return reportResult(await session.selectOption(request<ClickRequest>(target), values));
  },
});
