import { z } from 'zod';
import { errorResult, ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const pressKeyTool = defineTool({
  name: 'browser_press_key',
  title: 'Press a key',
  description: 'Press a key or chord in the focused element, e.g. Enter, Escape, Tab, ArrowDown, Control+A.',
  inputSchema: {
    key: z.string().min(1).describe('Key name as in Playwright keyboard.press: Enter, Escape, a, Shift+Tab…'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handle(session, { key }) {
    try {
      await session.pressKey(key);
      return new ResponseBuilder().line(`Pressed ${key}.`).structuredContent({ key }).build();
    } catch (err) {
      return errorResult(err);
    }
  },
});
