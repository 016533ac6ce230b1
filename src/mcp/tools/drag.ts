import { z } from 'zod';
import type { DragRequest } from '../../actions/drag.js';
import { cssPoint, hitSchema, imagePoint, reportShape } from '../outcome.js';
import { NO_DISPATCH, reportResult, request } from '../report.js';
import { conventionShape, expectField, frameField, modifiersField, pointShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

const end = (which: string) =>
  z
    .object(pointShape)
    .strict()
    .describe(
      `The ${which} of the drag: {x, y} or {box} in the call's units (default image px of frame), or {mark}.`,
    );

export const dragTool = defineTool({
  name: 'browser_drag',
  title: 'Drag from one point to another, start checked',
  description:
    'Presses the mouse at `from`, moves it with the button held to `to` and releases (drag and drop, sortable lists, sliders). Both ends are read off the frame like browser_click points (or marks). The start is checked like a click: if the element there changed since the frame, nothing is pressed. The answer names the element pressed and what lay under the drop point, then and now.',
  type: 'input',
  inputSchema: {
    frame: frameField,
    from: end('start'),
    to: end('end'),
    via: z
      .array(end('point passed on the way'))
      .max(20)
      .optional()
      .describe('Points to pass through, in order.'),
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
