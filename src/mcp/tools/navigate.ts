import { z } from 'zod';
import { errorResult, ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const navigateTool = defineTool({
  name: 'browser_navigate',
  title: 'Navigate to a URL',
  description: 'Open a URL in the tab. Frames taken before the navigation can no longer be clicked by.',
  inputSchema: { url: z.string().describe('Absolute URL, e.g. https://example.com/') },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handle(session, { url }) {
    try {
      const r = await session.navigate(url);
      const b = new ResponseBuilder();
      const notice = session.takeNotice();
      if (notice) b.line(notice);
      return b
        .line(`Navigated to ${r.url}${r.title ? ` ("${r.title}")` : ''}. Take browser_screenshot to see it.`)
        .structuredContent(r)
        .build();
    } catch (err) {
      return errorResult(err);
    }
  },
});
