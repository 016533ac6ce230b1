import { z } from 'zod';
import type { DragRequest } from '../../actions/verbs/drag.js';
import { cssPoint, hitSchema, imagePoint, reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { conventionShape, expectField, frameField, modifiersField, pointShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

const end = () => z.object(pointShape).strict();

export const dragTool = defineTool({
  name: 'browser_drag',
  title: 'Drag from one point to another, start checked',
  description:
    'Drag from `from` to `to` (each {x, y}, {box} or {mark} of the frame); refused if the start changed since the frame.',
  type: 'input',
  cap: 'pointer',
  inputSchema: {
    frame: frameField,
    from: end(),
    to: end(),
    via: z.array(end()).max(20).optional().describe('Points passed on the way.'),
    ...conventionShape,
    modifiers: modifiersField,
    expect: expectField,
  },
  outputSchema: {
    ...reportShape,
    drop: z
      .object({
        point: cssPoint,
        imagePoint: imagePoint.nullable(),
        hitAtCapture: hitSchema.nullable(),
        hitNow: hitSchema.nullable(),
      })
      .optional()
      .describe('Where the drag ended and what lay there in the frame and right before the release.'),
  },
  undone: 'Nothing was dragged.',
  refusalShape: NO_DISPATCH,
  async handle(session, args) {
    return reportResult(await session.drag(request<DragRequest>(args)));
  },
});
