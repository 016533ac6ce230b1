import type { ClickRequest } from '../../actions/click.js';
import { reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { modifiersField, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const hoverTool = defineTool({
  name: 'browser_hover',
  title: 'Move the mouse over a target, checked',
  description:
    'Moves the mouse to a target (same fields as browser_click) to open a menu or tooltip that shows on hover. The point is checked against the frame first; nothing is pressed. `landed` says what the pointer is over now; take a screenshot to see what opened.',
  type: 'input',
  inputSchema: { ...targetShape, modifiers: modifiersField },
  outputSchema: reportShape,
  undone: 'The mouse was not moved.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    return reportResult(await session.hover(request<ClickRequest>(args)));
  },
});
