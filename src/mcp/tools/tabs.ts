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
  description:
    'list: the tabs (a link or popup that opened one was followed, and said so). new: opens a tab (with url, loads it) and acts on it. select: acts on tab `index`. close: closes tab `index` (default: the active one). Frames belong to their tab: take a screenshot after switching.',
  type: 'navigation',
  inputSchema: {
    action: z.enum(['list', 'new', 'select', 'close']).describe('What to do.'),
    index: z.number().int().min(0).max(999).optional().describe('The tab, for select and close (from list).'),
    url: z.string().max(MAX_URL).optional().describe('For new: a URL to open in it.'),
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
