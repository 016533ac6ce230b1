import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/session/page-watch.js';
import type { TrueclickSession, WithEffects } from '../../actions/session/session.js';
import type { NavigationResult } from '../../browser/plumbing/navigation.js';
import { TrueclickError } from '../../geometry/index.js';
import { documented } from '../field-docs.js';
import { ResponseBuilder } from '../response.js';
import { MAX_URL } from '../target-schema.js';
import { defineTool } from '../tool.js';

const navigationOutput = {
  url: z.string().optional().describe('The tab’s URL after the call.'),
  title: z.string().optional().describe('The page’s title (document.title) after the call.'),
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

const HISTORY = {
  back: { what: 'Going back', run: (s: TrueclickSession, signal: AbortSignal) => s.back(signal) },
  forward: { what: 'Going forward', run: (s: TrueclickSession, signal: AbortSignal) => s.forward(signal) },
  reload: { what: 'Reloading', run: (s: TrueclickSession, signal: AbortSignal) => s.reload(signal) },
} as const;

export const navigateTool = defineTool({
  name: 'browser_navigate',
  title: 'Navigate: a URL, back, forward, reload',
  description:
    'Open `url` in the tab, or `go` back, forward or reload. Earlier frames of the tab become void.',
  type: 'navigation',
  inputSchema: {
    url: z.string().max(MAX_URL).optional().describe('Absolute URL.'),
    go: documented(
      z.enum(['back', 'forward', 'reload']).optional(),
      'Instead of `url`: back or forward one step in the tab’s history, or reload its page.',
    ),
    timeout: z.number().min(1).max(120).optional().describe('Seconds to wait for the load (default 30).'),
  },
  outputSchema: navigationOutput,
  undone: 'The tab did not move.',
  async handle(session, { url, go, timeout }, { signal }) {
    if ((url === undefined) === (go === undefined))
      throw new TrueclickError(
        'BAD_ARGUMENT',
        `browser_navigate takes a url or go, ${url === undefined ? 'and got neither' : 'not both'}.`,
        'Pass {url: "https://…"} to open a page, or {go: "back" | "forward" | "reload"}.',
        url === undefined ? 'url' : 'go',
      );
    if (go) return moved(await HISTORY[go].run(session, signal), HISTORY[go].what);
    return moved(
      await session.navigate(url as string, signal, timeout === undefined ? undefined : timeout * 1000),
      `Leaving for ${url}`,
    );
  },
});
