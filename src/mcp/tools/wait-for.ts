import { z } from 'zod';
import { MAX_WAIT_S } from '../../actions/verbs/wait.js';
import { ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const waitForTool = defineTool({
  name: 'browser_wait_for',
  title: 'Wait for text to appear or go, or for a time',
  description:
    'Wait until `text` shows or `text_gone` goes (at most `timeout` s, default 10), or for `seconds`.',
  type: 'read',
  inputSchema: {
    text: z.string().min(1).max(500).optional(),
    text_gone: z.string().min(1).max(500).optional(),
    seconds: z.number().min(0).max(MAX_WAIT_S).optional(),
    timeout: z.number().min(0).max(MAX_WAIT_S).optional(),
  },
  outputSchema: {
    met: z.boolean().optional().describe('Whether the condition held when the wait ended.'),
    waitedMs: z.number().optional(),
    url: z.string().optional(),
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
