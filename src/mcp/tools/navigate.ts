import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/page-watch.js';
import type { WithEffects } from '../../actions/session.js';
import type { NavigationResult } from '../../browser/navigation.js';
import { ResponseBuilder } from '../response.js';
import { MAX_URL } from '../target-schema.js';
import { defineTool, type ToolDefinition } from '../tool.js';

const navigationOutput = {
  url: z.string().optional().describe('The tab’s URL after the call.'),
  title: z.string().optional(),
  noHistory: z.boolean().optional().describe('There was no page to go back or forward to.'),
  stillLoading: z
    .object({ readyState: z.string(), waitedMs: z.number() })
    .optional()
    .describe('The page arrived but had not finished loading when the wait ended (ms waited).'),
};

/** The answer of a call that moves the tab: where it is now, or the dialog that holds the move. */
function moved(r: WithEffects<NavigationResult>, what: string) {
  const message = r.dialog
    ? `${what} is waiting: the page asks "${r.dialog.message.slice(0, 200)}" (${r.dialog.type} dialog). Answer with browser_handle_dialog {accept: true} to leave, false to stay.`
    : r.noHistory
      ? `There is no page to go ${what === 'Going back' ? 'back' : 'forward'} to; the tab stays at ${r.url}.`
      : r.stillLoading
        ? `The tab is at ${r.url}${r.title ? ` ("${r.title}")` : ''}, still loading after ${r.stillLoading.waitedMs / 1000} s (document.readyState "${r.stillLoading.readyState}"): something on it never finished. What has loaded can be seen and used: take browser_screenshot.`
        : `The tab is at ${r.url}${r.title ? ` ("${r.title}")` : ''}.${effectsSentence({ ...r, dialog: undefined } as typeof r)} Take browser_screenshot to see it.`;
  return new ResponseBuilder()
    .line(message)
    .structuredContent({
      verdict: 'OK',
      message,
      url: r.url,
      title: r.title,
      ...(r.noHistory ? { noHistory: true } : {}),
      ...(r.stillLoading ? { stillLoading: r.stillLoading } : {}),
      ...effectsOf(r),
    })
    .build();
}

export const navigateTool = defineTool({
  name: 'browser_navigate',
  title: 'Navigate to a URL',
  description: 'Open a URL in the tab. Frames taken before the navigation can no longer be acted on.',
  type: 'navigation',
  inputSchema: {
    url: z.string().max(MAX_URL).describe('Absolute URL, e.g. https://example.com/'),
    timeout: z
      .number()
      .min(1)
      .max(120)
      .optional()
      .describe(
        'Seconds to wait for the page to load (default 30). A page that arrived but is still loading then is reported as such, not as an error.',
      ),
  },
  outputSchema: navigationOutput,
  undone: 'The tab did not move.',
  async handle(session, { url, timeout }, { signal }) {
    return moved(
      await session.navigate(url, signal, timeout === undefined ? undefined : timeout * 1000),
      `Leaving for ${url}`,
    );
  },
});

function historyTool(
  name: string,
  title: string,
  description: string,
  what: string,
  run: (
    s: Parameters<ToolDefinition['handle']>[0],
    signal: AbortSignal,
  ) => Promise<WithEffects<NavigationResult>>,
): ToolDefinition {
  return defineTool({
    name,
    title,
    description,
    type: 'navigation',
    inputSchema: {},
    outputSchema: navigationOutput,
    undone: 'The tab did not move.',
    async handle(session, _args, { signal }) {
      return moved(await run(session, signal), what);
    },
  });
}

export const backTool = historyTool(
  'browser_navigate_back',
  'Go back',
  'Go back one page in the tab’s history, as the browser’s Back button.',
  'Going back',
  (s, signal) => s.back(signal),
);
export const forwardTool = historyTool(
  'browser_navigate_forward',
  'Go forward',
  'Go forward one page in the tab’s history.',
  'Going forward',
  (s, signal) => s.forward(signal),
);
export const reloadTool = historyTool(
  'browser_reload',
  'Reload the page',
  'Reload the tab. Frames taken before can no longer be acted on.',
  'Reloading',
  (s, signal) => s.reload(signal),
);
