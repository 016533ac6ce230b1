import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/session/page-watch.js';
import { dialogSchema } from '../outcome.js';
import { ResponseBuilder } from '../response.js';
import { MAX_TEXT } from '../target-schema.js';
import { defineTool } from '../tool.js';

export const handleDialogTool = defineTool({
  name: 'browser_handle_dialog',
  title: 'Answer a JavaScript dialog',
  description: 'Answer the open alert, confirm, prompt or leave-page dialog; the page is frozen until then.',
  type: 'input',
  inputSchema: {
    accept: z.boolean().describe('true: OK / Leave; false: Cancel / Stay.'),
    prompt_text: z.string().max(MAX_TEXT).optional().describe('Answer for a prompt.'),
  },
  outputSchema: {
    answered: dialogSchema.optional().describe('The dialog that was answered.'),
    accepted: z.boolean().optional().describe('Whether it was accepted (OK / Leave), as `accept` asked.'),
    url: z.string().optional().describe('The page’s URL after the answer (it may have navigated).'),
  },
  undone: 'No dialog was answered.',
  async handle(session, { accept, prompt_text }) {
    const r = await session.handleDialog(accept, prompt_text);
    const message = `${accept ? 'Accepted' : 'Dismissed'} the ${r.dialog.type} dialog ("${r.dialog.message.slice(0, 200)}")${prompt_text !== undefined ? ` with ${JSON.stringify(prompt_text.slice(0, 200))}` : ''}; the page is now at ${r.url}.${effectsSentence(r)} Take a screenshot to see it.`;
    return new ResponseBuilder()
      .line(message)
      .structuredContent({
        verdict: 'OK',
        message,
        answered: r.dialog,
        accepted: accept,
        url: r.url,
        ...effectsOf(r),
      })
      .build();
  },
});
