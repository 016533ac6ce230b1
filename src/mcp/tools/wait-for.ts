import { z } from 'zod';
import { MAX_WAIT_S } from '../../actions/verbs/wait.js';
import { documented } from '../field-docs.js';
import { ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const waitForTool = defineTool({
  name: 'browser_wait_for',
  title: 'Wait for text to appear or go, or for a time',
  description:
    'Wait until `text` shows or `text_gone` goes (at most `timeout` s, default 10), or for `seconds`.',
  type: 'read',
  inputSchema: {
    text: documented(
      z.string().min(1).max(500).optional(),
      'Wait until this text is visible on the page (as Playwright’s getByText finds it: part of an element’s text, ignoring case, whitespace collapsed).',
    ),
    text_gone: documented(
      z.string().min(1).max(500).optional(),
      'Wait until this text is no longer visible (after `text` showed, when both are given).',
    ),
    seconds: documented(
      z.number().min(0).max(MAX_WAIT_S).optional(),
      'Seconds to wait: alone, or before looking for the text.',
    ),
    timeout: documented(
      z.number().min(0).max(MAX_WAIT_S).optional(),
      'Longest wait for each text, seconds (default 10). Running out is an answer (met: false), not an error.',
    ),
  },
  outputSchema: {
    met: z.boolean().optional().describe('Whether the condition held when the wait ended.'),
    waitedMs: z.number().optional().describe('How long the call waited, ms.'),
    url: z.string().optional().describe('The tab’s URL when the wait ended.'),
  },
  undone: 'Nothing was waited for.',
  async handle(session, { text, text_gone, seconds, timeout }, { signal }) {
    const r = await session.waitFor(
      {
        ...(text !== undefined ? { text } : {}),
        ...(text_gone !== undefined ? { textGone: text_gone } : {}),
        ...(seconds !== undefined ? { seconds } : {}),
        ...(timeout !== undefined ? { timeout } : {}),
      },
      signal,
    );
    const what =
      text !== undefined
        ? `"${text}" to appear`
        : text_gone !== undefined
          ? `"${text_gone}" to go`
          : `${seconds} s`;
    const message = r.met
      ? `Waited ${r.waitedMs} ms for ${what}${text !== undefined || text_gone !== undefined ? ': done' : ''}. Take a screenshot to see the page.`
      : `Waited ${r.waitedMs} ms for ${what}; it did not happen in time. Take a screenshot to see the page.`;
    return new ResponseBuilder()
      .line(message)
      .structuredContent({ verdict: 'OK', message, ...r })
      .build();
  },
});
