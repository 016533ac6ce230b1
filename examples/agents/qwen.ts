// An agent loop for Qwen3-VL computer use with trueclick as the executor. Qwen is served as a chat model
// (vLLM, SGLang, DashScope's OpenAI-compatible mode); the computer_use function is declared in the system
// prompt, the model answers with <tool_call>{"name": "computer_use", "arguments": {…}}</tool_call> blocks
// (coordinates on the 0–999 grid), and the next user turn is what happened plus the new screenshot.
// trueclick reads the model's text as written. Swap `qwenStandIn(...)` for
// `new OpenAI({ baseURL: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1' })` and nothing else changes.
//
//   npm run build && node dist/examples/agents/qwen.js

import { familyReply, type Screenshot } from '../../src/index.js';
import { AgentRun } from './agent-run.js';
import { type AgentOptions, type AgentSummary, expectFrom, TARGET_INSTRUCTION } from './loop.js';
import { dataOf, exampleMain, type Intent, isMain, StandInBrain, type StandInOptions } from './stand-in.js';
import type { ChatClient, ChatMessage } from './ui-tars.js';

export type { ChatClient, ChatMessage } from './ui-tars.js';

export const QWEN_MODEL = 'qwen3-vl-plus';

/** The computer_use function as QwenLM/Qwen3-VL's cookbook declares it (cookbooks/utils/agent_function_call.py). */
const COMPUTER_USE = {
  type: 'function',
  function: {
    name: 'computer_use',
    description:
      "Use a mouse and keyboard to interact with a computer, and take screenshots.\n* The screen's resolution is 1000x1000.\n* Make sure to click any buttons, links, icons, etc with the cursor tip in the center of the element.",
    parameters: {
      type: 'object',
      required: ['action'],
      properties: {
        action: {
          type: 'string',
          enum: [
            'key',
            'type',
            'mouse_move',
            'left_click',
            'left_click_drag',
            'right_click',
            'middle_click',
            'double_click',
            'triple_click',
            'scroll',
            'hscroll',
            'wait',
            'terminate',
            'answer',
          ],
        },
        keys: { type: 'array' },
        text: { type: 'string' },
        coordinate: { type: 'array' },
        pixels: { type: 'number' },
        time: { type: 'number' },
        status: { type: 'string', enum: ['success', 'failure'] },
      },
    },
  },
};

const SYSTEM = `# Tools

You may call one or more functions to assist with the user query.

You are provided with function signatures within <tools></tools> XML tags:
<tools>
${JSON.stringify(COMPUTER_USE)}
</tools>

For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:
<tool_call>
{"name": <function-name>, "arguments": <args-json-object>}
</tool_call>

${TARGET_INSTRUCTION}`;

const shown = (shot: Screenshot) => ({
  type: 'image_url' as const,
  image_url: { url: `data:${shot.mimeType};base64,${shot.base64}` },
});

export async function runQwenAgent(o: AgentOptions<ChatClient>): Promise<AgentSummary> {
  const run = new AgentRun('qwen', 'qwen3-vl', o);
  let shot = await o.session.screenshot();
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: [{ type: 'text', text: o.task }, shown(shot)] },
  ];
  while (run.nextTurn()) {
    const res = await o.client.chat.completions.create({ model: QWEN_MODEL, messages, temperature: 0 });
    const text = res.choices[0]?.message.content ?? '';
    messages.push({ role: 'assistant', content: text });
    // Plain text without a <tool_call> is the model's final answer.
    if (!text.includes('<tool_call>')) return run.summary('done', messages, text);

    const x = await run.execute(shot, text, expectFrom(text));
    if (x.kind === 'safety') return run.summary('error', messages, x.message); // Qwen has no such gate
    shot = x.screenshot;
    // terminate / answer: the model says it is finished.
    if (x.result?.done) return run.summary('done', messages, x.result.done.text ?? x.result.done.status);
    // What ran (each call's outcome) and the new screenshot are the next user turn.
    const said = x.result
      ? (familyReply(x.result) as { content: Array<{ text?: string }> }).content.map((p) => p.text ?? '')
      : [];
    const report = [...said, x.note ?? ''].filter(Boolean).join('\n');
    messages.push({ role: 'user', content: [{ type: 'text', text: report }, shown(shot)] });
  }
  return run.summary('max_turns', messages);
}

// ─── The stand-in: the chat API's call shape, a scripted brain ──────────────────────────────────────────

const call = (args: Record<string, unknown>) =>
  `<tool_call>\n${JSON.stringify({ name: 'computer_use', arguments: args })}\n</tool_call>`;

function callsFor(intent: Intent): string[] {
  switch (intent.kind) {
    case 'click':
      return [call({ action: 'left_click', coordinate: intent.at })];
    case 'fill':
      return [
        call({ action: 'left_click', coordinate: intent.at }),
        call({ action: 'type', text: intent.text }),
      ];
    case 'drag':
      // computer_use drags from where the mouse is: move there first.
      return [
        call({ action: 'mouse_move', coordinate: intent.from }),
        call({ action: 'left_click_drag', coordinate: intent.to }),
      ];
    case 'done':
      return [call({ action: 'terminate', status: 'success' })];
  }
}

/** A scripted Qwen with the chat API's call shape: it reads the last user turn and the newest screenshot. */
export function qwenStandIn(o: StandInOptions): ChatClient {
  const brain = new StandInBrain('qwen3-vl', o);
  return {
    chat: {
      completions: {
        async create({ messages }) {
          const last = messages.at(-1)?.content;
          const parts = Array.isArray(last) ? last : [];
          const feedback = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
          const image = messages
            .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
            .filter((p) => p.type === 'image_url')
            .at(-1);
          const url = image?.type === 'image_url' ? image.image_url.url : '';
          const { intent, thought } = await brain.next(feedback, dataOf(url));
          const content = `${thought}\n${callsFor(intent).join('\n')}`;
          return { choices: [{ message: { role: 'assistant', content } }] };
        },
      },
    },
  };
}

async function main() {
  await exampleMain('/rw/dialogs', ({ session, perceive }) =>
    runQwenAgent({
      session,
      task: 'Delete ticket TCK-7741.',
      client: qwenStandIn({
        perceive,
        plan: [{ do: 'click', target: { role: 'button', name: 'Delete TCK-7741' } }],
      }),
      // The page asks "Delete TCK-7741?": a real agent shows it to the person at the keyboard.
      confirm: async (r) => {
        console.log(`confirm? ${r.message} -> yes`);
        return true;
      },
    }),
  );
}

if (isMain(import.meta.url)) await main();
