import { z } from 'zod';
import type { ClickRequest } from '../../actions/verbs/click.js';
import { ACTION_VERDICTS, cssPoint, reportShape } from '../outcome.js';
import { NO_DISPATCH, request } from '../report.js';
import { ResponseBuilder } from '../response.js';
import { targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const pointTool = defineTool({
  name: 'browser_point',
  title: 'Resolve a point without clicking',
  description:
    'Where a target (as browser_click) lands, and what is there now and was in the frame; clicks nothing.',
  type: 'read',
  cap: 'diagnostics',
  inputSchema: targetShape,
  outputSchema: {
    point: cssPoint
      .optional()
      .describe('The resolved point, CSS px of the viewport at capture (as browser_click’s `point`).'),
    imagePoint: reportShape.imagePoint,
    frame: reportShape.frame,
    hitNow: reportShape.hitNow,
    hitAtCapture: reportShape.hitAtCapture,
    expected: reportShape.expected,
    check: z
      .enum(ACTION_VERDICTS)
      .optional()
      .describe(`What browser_click would answer now: ${ACTION_VERDICTS.join(', ')}.`),
    expectedAt: reportShape.expectedAt,
    scrollSinceFrame: reportShape.scrollSinceFrame,
  },
  undone: 'Nothing was clicked.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    const r = await session.point(request<ClickRequest>(args));
    const text =
      r.verdict === 'OK' ? r.message : r.message.replace(/^Not clicked: /, 'A click here would be refused: ');
    return new ResponseBuilder()
      .line(text)
      .structuredContent({
        verdict: 'OK',
        message: text,
        point: r.dispatched ?? r.point,
        imagePoint: r.imagePoint,
        frame: r.frame,
        hitNow: r.hitNow,
        hitAtCapture: r.hitAtCapture,
        ...(r.expected ? { expected: r.expected } : {}),
        check: r.verdict,
        ...(r.expectedAt ? { expectedAt: r.expectedAt } : {}),
        ...(r.scrollSinceFrame ? { scrollSinceFrame: r.scrollSinceFrame } : {}),
      })
      .build();
  },
});
