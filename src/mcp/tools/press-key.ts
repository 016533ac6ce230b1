import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/session/page-watch.js';
import { documented } from '../field-docs.js';
import { ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const pressKeyTool = defineTool({
  name: 'browser_press_key',
  title: 'Press a key',
  description: 'Press a key or chord, e.g. Enter, Escape, Control+A.',
  type: 'input',
  inputSchema: {
    key: documented(
      z.string().min(1).max(64),
      'A key name as Playwright spells it (Enter, Tab, Escape, ArrowDown, PageDown, a single character), or a chord joined by + (Control+A, Shift+Tab); sent to the focused element.',
    ),
    repeat: documented(
      z.number().int().min(1).max(100).optional(),
      'How many times to press it (default 1).',
    ),
  },
  outputSchema: {
    key: z.string().optional().describe('The key or chord pressed, as given.'),
    pressed: z
      .number()
      .int()
      .optional()
      .describe('How many times it was pressed: fewer than `repeat` when a dialog or a cancel stopped it.'),
  },
  undone: 'No key was pressed.',
  async handle(session, { key, repeat }, { signal }) {
    const r = await session.pressKey(key, { repeat: repeat ?? 1, signal });
    const message = `Pressed ${key}${(repeat ?? 1) > 1 ? ` ${r.pressed} times` : ''}.${effectsSentence(r)}`;
    return new ResponseBuilder()
      .line(message)
      .structuredContent({ verdict: 'OK', message, key, pressed: r.pressed, ...effectsOf(r) })
      .build();
  },
});
