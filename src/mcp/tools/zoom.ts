import { z } from 'zod';
import type { ZoomRequest } from '../../actions/zoom.js';
import { frameOutput, frameResult } from '../frame-result.js';
import { request } from '../report.js';
import { conventionShape, frameField, MAX_COORDINATE } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const zoomTool = defineTool({
  name: 'browser_zoom',
  title: 'Look closer at a region (a frame of its own)',
  description:
    'Captures a region of a frame enlarged (Chromium renders it anew at a higher scale, up to 4× its device pixels), as a new frame: read small text or a tiny control there, then click by that frame’s own pixels. `region` is [left, top, right, bottom] in the frame’s image px by default (any box convention works, as for browser_click).',
  type: 'read',
  inputSchema: {
    frame: frameField,
    region: z
      .array(z.number().finite().min(-MAX_COORDINATE).max(MAX_COORDINATE))
      .length(4)
      .describe('The region, 4 numbers in `units` and `box_format` (default xyxy image px of frame).'),
    ...conventionShape,
    max_width: z.number().int().min(64).max(16_384).optional().describe('Largest image width to send, px.'),
    marks: z.boolean().optional().describe('Draw numbered labels on the interactive elements in the region.'),
  },
  outputSchema: frameOutput,
  undone: 'No zoom was taken.',
  async handle(session, args) {
    return frameResult(await session.zoom(request<ZoomRequest>(args)));
  },
});
