import { z } from 'zod';
import { ResponseBuilder } from '../response.js';
import { MAX_URL } from '../target-schema.js';
import { defineTool } from '../tool.js';

const tabSchema = z.object({
  index: z.number().int(),
  url: z.string(),
  title: z.string(),
  active: z.boolean(),
});

export const tabsTool = defineTool({
  name: 'browser_tabs',
  title: 'List, open, select or close tabs',
  description: 'List, open (`url`), select or close (`index`) tabs. Frames belong to their tab.',
  type: 'navigation',
  inputSchema: {
    action: z.enum(['list', 'new', 'select', 'close']),
    index: z.number().int().min(0).max(999).optional(),
    url: z.string().max(MAX_URL).optional(),
  },
  outputSchema: {
    tabs: z.array(tabSchema).optional(),
    active: z.number().int().optional().describe('Index of the tab trueclick now acts on.'),
  },
  undone: 'The tabs are as they were.',
  async handle(session, { action, index, url }, { signal }) {
    const r = await session.tab(action, {
      ...(index !== undefined ? { index } : {}),
      ...(url !== undefined ? { url } : {}),
      signal,
    });
    const list = r.tabs.map(
      (t) => `${t.active ? '*' : ' '} ${t.index}: ${t.title ? `${t.title} — ` : ''}${t.url}`,
    );
    const head =
      action === 'list'
        ? 'Tabs (* = the one trueclick acts on):'
        : `Done (${action}); trueclick now acts on tab ${r.active}. Tabs:`;
    const message = `${head}\n${list.join('\n')}`;
    return new ResponseBuilder()
      .line(message)
      .structuredContent({ verdict: 'OK', message, tabs: r.tabs, active: r.active })
      .build();
  },
});
