import { z } from 'zod';
import { errorResult, ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const scrollTool = defineTool({
  name: 'browser_scroll',
  title: 'Scroll the page',
  description:
    'Scroll with the mouse wheel at the viewport centre by dx, dy CSS px (positive dy = down). Earlier frames stay usable: a point read off them follows the document.',
  inputSchema: {
    dx: z.number().describe('Horizontal scroll, CSS px (positive = right).'),
    dy: z.number().describe('Vertical scroll, CSS px (positive = down).'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  async handle(session, { dx, dy }) {
    try {
      const r = await session.scroll(dx, dy);
      const moved = { x: r.after.x - r.before.x, y: r.after.y - r.before.y };
      return new ResponseBuilder()
        .line(
          `Scrolled by (${moved.x}, ${moved.y}) CSS px; scroll offset is now (${r.after.x}, ${r.after.y}) CSS px${moved.x !== dx || moved.y !== dy ? ' (the page could not scroll the full amount)' : ''}. Take a new screenshot to see it.`,
        )
        .structuredContent({ scroll: r.after, moved })
        .build();
    } catch (err) {
      return errorResult(err);
    }
  },
});
