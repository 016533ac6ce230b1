import { z } from 'zod';
import type { ClickRequest } from '../../actions/verbs/click.js';
import { documented } from '../field-docs.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const selectOptionTool = defineTool({
  name: 'browser_select_option',
  title: 'Pick options of a native select, checked',
  description:
    'Pick `values` (labels or values) in the native <select> at a target (as browser_click). Do not click a native select.',
  type: 'input',
  cap: 'forms',
  inputSchema: {
    ...targetShape,
    values: documented(
      z.array(z.string().max(500)).min(1).max(100),
      'The options to select, each found by its value, else by its label (exact, then ignoring case); they replace the selection. Several only in a <select multiple>.',
    ),
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
