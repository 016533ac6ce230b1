import { z } from 'zod';
import type { DragRequest } from '../../actions/verbs/drag.js';
import { documented } from '../field-docs.js';
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
    from: documented(
      end(),
      'Where the left button is pressed: {x, y}, {box} (its centre) or {mark}, read as a target of browser_click is (the convention fields apply) and checked as one: refused if the element there changed since the frame.',
    ),
    to: documented(
      end(),
      'Where the button is released, in the same forms and units; not checked (what lay there in the frame and right before the release is in `drop`).',
    ),
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
