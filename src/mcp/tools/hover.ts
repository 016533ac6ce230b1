import type { ClickRequest } from '../../actions/verbs/click.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { modifiersField, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const hoverTool = defineTool({
  name: 'browser_hover',
  title: 'Move the mouse over a target, checked',
  description: 'Move the mouse onto a target (as browser_click; checked first) to open what shows on hover.',
  type: 'input',
  cap: 'pointer',
  inputSchema: { ...targetShape, modifiers: modifiersField },
  outputSchema: reportShape,
  undone: 'The mouse was not moved.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    return reportResult(await session.hover(request<ClickRequest>(args)));
  },
});
