import { z } from 'zod';
import type { ClickRequest } from '../../actions/verbs/click.js';
import { documented } from '../field-docs.js';
import { cssPoint, hitSchema, reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { hasTarget, modifiersField, targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

/** A wheel scroll of at most this many CSS px per axis in one call. */
export const MAX_SCROLL = 50_000;

export const scrollTool = defineTool({
  name: 'browser_scroll',
  title: 'Scroll with the wheel at a point',
  description:
    'Turn the wheel by dx, dy CSS px (dy > 0: down) at a target (as browser_click), else at the viewport centre.',
  type: 'input',
  inputSchema: {
    dx: documented(
      z.number().min(-MAX_SCROLL).max(MAX_SCROLL),
      'Horizontal wheel turn, CSS px (> 0: right); the scroll container under the point scrolls, else the page.',
    ),
    dy: documented(z.number().min(-MAX_SCROLL).max(MAX_SCROLL), 'Vertical wheel turn, CSS px (> 0: down).'),
    ...targetShape,
    modifiers: modifiersField,
  },
  outputSchema: {
    ...reportShape,
    scrolled: z
      .object({ page: z.boolean(), element: hitSchema.nullable() })
      .optional()
      .describe('What the wheel scrolled: the page, or an inner scroll container.'),
    moved: cssPoint.optional().describe('CSS px it moved (positive = right / down).'),
    offset: cssPoint.optional().describe('Its scroll offset after the wheel, CSS px.'),
    scroll: cssPoint.optional().describe('The page’s scroll offset after the wheel, CSS px.'),
  },
  undone: 'Nothing was scrolled.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    const { dx, dy, modifiers, ...target } = args;
    const req = request<ClickRequest>(target);
    const r = await session.scroll(
      { x: dx, y: dy },
      hasTarget(req as Record<string, unknown>) ? req : undefined,
      modifiers ?? [],
    );
    return reportResult(r);
  },
});
