import { z } from 'zod';
import { documented } from '../field-docs.js';
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
    action: documented(
      z.enum(['list', 'new', 'select', 'close']),
      'list: the tabs; new: open a tab (with `url` in it) and act on it; select: act on tab `index`; close: close tab `index` (default: the one trueclick acts on; a blank tab opens when none is left). Tabs and popups the page opens join the list by themselves.',
    ),
    index: documented(
      z.number().int().min(0).max(999).optional(),
      'For select and close: the tab’s index in the list, from 0 (indices shift when a tab closes).',
    ),
    url: documented(z.string().max(MAX_URL).optional(), 'For new: the absolute URL to open in the new tab.'),
  },
  outputSchema: {
    tabs: z
      .array(tabSchema)
      .optional()
      .describe(
        'Every tab after the call, in the order they opened: {index (from 0), url, title, active (the one trueclick acts on)}.',
      ),
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
