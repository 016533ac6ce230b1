import { z } from 'zod';
import type { ZoomRequest } from '../../actions/verbs/zoom.js';
import { documented } from '../field-docs.js';
import { frameOutput, frameResult } from '../frame-result.js';
import { request } from '../report.js';
import { conventionShape, frameField, MAX_COORDINATE, marksField } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const zoomTool = defineTool({
  name: 'browser_zoom',
  title: 'Look closer at a region (a frame of its own)',
  description:
    'A region of a frame rendered anew at up to 4× its device px, as a new frame you can click by. `region`: [x1, y1, x2, y2] px of the frame.',
  type: 'read',
  cap: 'zoom',
  inputSchema: {
    frame: frameField,
    region: documented(
      z.array(z.number().finite().min(-MAX_COORDINATE).max(MAX_COORDINATE)).length(4),
      'The region, four numbers read as a target’s `box` is: default [left, top, right, bottom] px of the frame’s image, CSS px of the viewport without `frame`; the convention fields apply. It follows the document if the page scrolled since the frame, and must lie in the viewport now, at least 4×4 CSS px.',
    ),
    ...conventionShape,
    max_width: z.number().int().min(64).max(16_384).optional().describe('Largest image width, px.'),
    marks: marksField,
  },
  outputSchema: frameOutput,
  undone: 'No zoom was taken.',
  async handle(session, args) {
    return frameResult(await session.zoom(request<ZoomRequest>(args)));
  },
});
