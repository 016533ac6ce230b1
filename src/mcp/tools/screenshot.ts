import { z } from 'zod';
import { frameOutput, frameResult } from '../frame-result.js';
import { marksField } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const screenshotTool = defineTool({
  name: 'browser_screenshot',
  title: 'Screenshot (a frame you can click by)',
  description:
    'Screenshot of the viewport: a frame (f1, f2, …). To act on what you see, pass `frame` and x, y in px of this image.',
  type: 'read',
  inputSchema: {
    marks: marksField,
    max_width: z.number().int().min(64).max(16_384).optional().describe('Largest image width, px.'),
  },
  outputSchema: frameOutput,
  undone: 'No screenshot was taken.',
  async handle(session, { marks, max_width }) {
    return frameResult(
      await session.screenshot({
        ...(marks !== undefined ? { marks } : {}),
        ...(max_width !== undefined ? { maxWidth: max_width } : {}),
      }),
    );
  },
});
