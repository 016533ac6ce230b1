import { z } from 'zod';
import { effectsOf, effectsSentence } from '../../actions/session/page-watch.js';
import { ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

export const pressKeyTool = defineTool({
  name: 'browser_press_key',
  title: 'Press a key',
  description: 'Press a key or chord, e.g. Enter, Escape, Control+A.',
  type: 'input',
  inputSchema: {
    key: z.string().min(1).max(64),
    repeat: z.number().int().min(1).max(100).optional(),
  },
  outputSchema: { key: z.string().optional(), pressed: z.number().int().optional() },
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
