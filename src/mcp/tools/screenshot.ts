import { z } from 'zod';
import { frameOutput, frameResult } from '../frame-result.js';
import { defineTool } from '../tool.js';

export const screenshotTool = defineTool({
  name: 'browser_screenshot',
  title: 'Screenshot (a frame you can click by)',
  description:
    'Screenshot of the viewport. Each screenshot is a frame (f1, f2, …): to act on something you see, pass `frame` and the pixel coordinates of this image to browser_click (or hover, drag, type, select); trueclick converts them to CSS px and checks the element is still there.',
  type: 'read',
  inputSchema: {
    marks: z
      .boolean()
      .optional()
      .describe('Draw numbered labels on interactive elements and list them; click one with {frame, mark}.'),
    max_width: z
      .number()
      .int()
      .min(64)
      .max(16_384)
      .optional()
      .describe('Largest image width to send, in image px (default fits 1568 px long edge and 1.15 MP).'),
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
