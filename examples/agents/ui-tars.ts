// An agent loop for UI-TARS-1.5 with trueclick as the executor. UI-TARS is served as a chat model (vLLM,
// SGLang or a hosted endpoint with the OpenAI-compatible chat API): it answers in text, "Thought: …" then
// "Action: click(point='<point>x y</point>')" in pixels of its smart-resized image, and the next user turn is
// the new screenshot. trueclick reads the action text as written. Swap `uiTarsStandIn(...)` for
// `new OpenAI({ baseURL: 'http://your-vllm:8000/v1' })` and nothing else changes.
//
//   npm run build && node dist/examples/agents/ui-tars.js

import { familyReply, type Screenshot } from '../../src/index.js';
import { AgentRun } from './agent-run.js';
import { type AgentOptions, type AgentSummary, expectFrom, TARGET_INSTRUCTION } from './loop.js';
import { dataOf, exampleMain, type Intent, isMain, StandInBrain, type StandInOptions } from './stand-in.js';

type ChatPart = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string | ChatPart[];
}

/** The part of an OpenAI-compatible chat client this loop calls (`new OpenAI({ baseURL })` has it). */
export interface ChatClient {
  chat: {
    completions: {
      create(body: { model: string; messages: ChatMessage[]; temperature: number }): Promise<{
        choices: Array<{ message: { role: 'assistant'; content: string | null } }>;
      }>;
    };
  };
}

export const UI_TARS_MODEL = 'ByteDance-Seed/UI-TARS-1.5-7B';

/** COMPUTER_USE_DOUBAO from bytedance/UI-TARS codes/ui_tars/prompt.py, plus the Target line. */
const PROMPT = (
  task: string,
) => `You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.

## Output Format
\`\`\`
Thought: ...
Action: ...
\`\`\`

## Action Space
click(point='<point>x1 y1</point>')
left_double(point='<point>x1 y1</point>')
right_single(point='<point>x1 y1</point>')
drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')
hotkey(key='ctrl c') # Split keys with a space and use lowercase. Also, do not use more than 3 keys in one hotkey action.
type(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format. If you want to submit your input, use \\n at the end of content.
scroll(point='<point>x1 y1</point>', direction='down or up or right or left')
wait() #Sleep for 5s and take a screenshot to check for any changes.
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.

## Note
- Use English in \`Thought\` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in \`Thought\` part.
- ${TARGET_INSTRUCTION}

## User Instruction
${task}`;

const shown = (shot: Screenshot): ChatPart => ({
  type: 'image_url',
  image_url: { url: `data:${shot.mimeType};base64,${shot.base64}` },
});

export async function runUiTarsAgent(o: AgentOptions<ChatClient>): Promise<AgentSummary> {
  const run = new AgentRun('ui-tars', 'ui-tars-1.5', o);
  let shot = await o.session.screenshot();
  const messages: ChatMessage[] = [
    { role: 'user', content: PROMPT(o.task) },
    { role: 'user', content: [shown(shot)] },
  ];
  while (run.nextTurn()) {
    const res = await o.client.chat.completions.create({ model: UI_TARS_MODEL, messages, temperature: 0 });
    const text = res.choices[0]?.message.content ?? '';
    messages.push({ role: 'assistant', content: text });

    // The whole text goes to trueclick: it finds the Action part, one or several calls.
    const x = await run.execute(shot, text, expectFrom(text));
    if (x.kind === 'safety') return run.summary('error', messages, x.message); // UI-TARS has no such gate
    shot = x.screenshot;
    // finished(content=…): the model says the task is done.
    if (x.result?.done) return run.summary('done', messages, x.result.done.text);
    const turn = x.result
      ? (familyReply(x.result, shot) as unknown as ChatMessage)
      : { role: 'user' as const, content: [shown(shot)] };
    if (x.note && Array.isArray(turn.content)) turn.content.unshift({ type: 'text', text: x.note });
    messages.push(turn);
  }
  return run.summary('max_turns', messages);
}

// ─── The stand-in: the chat API's call shape, a scripted brain ──────────────────────────────────────────

const point = ([x, y]: [number, number]) => `<point>${x} ${y}</point>`;
const quoted = (s: string) => s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n');

function actionFor(intent: Intent): string {
  switch (intent.kind) {
    case 'click':
      return `click(point='${point(intent.at)}')`;
    case 'fill':
      return `click(point='${point(intent.at)}')\n\ntype(content='${quoted(intent.text)}')`;
    case 'drag':
      return `drag(start_point='${point(intent.from)}', end_point='${point(intent.to)}')`;
    case 'done':
      return `finished(content='${quoted(intent.text)}')`;
  }
}

/** A scripted UI-TARS with the chat API's call shape: it reads the last user turn and the newest screenshot. */
export function uiTarsStandIn(o: StandInOptions): ChatClient {
  const brain = new StandInBrain('ui-tars-1.5', o);
  return {
    chat: {
      completions: {
        async create({ messages }) {
          const parts = messages.flatMap((m) =>
            m.role === 'user' && Array.isArray(m.content) ? m.content : [],
          );
          const image = parts.filter((p) => p.type === 'image_url').at(-1);
          const last = messages.at(-1)?.content;
          const feedback = Array.isArray(last)
            ? last.map((p) => (p.type === 'text' ? p.text : '')).join('\n')
            : '';
          const { intent, thought } = await brain.next(
            feedback,
            dataOf(image?.type === 'image_url' ? image.image_url.url : ''),
          );
          const content = `Thought: ${thought}\nAction: ${actionFor(intent)}`;
          return { choices: [{ message: { role: 'assistant', content } }] };
        },
      },
    },
  };
}

async function main() {
  await exampleMain('/rw/sortable', ({ session, perceive }) =>
    runUiTarsAgent({
      session,
      task: 'Move TCK-7739 to the top of the list.',
      client: uiTarsStandIn({
        perceive,
        plan: [
          {
            do: 'drag',
            from: { selector: '#row-TCK-7739 .handle' },
            to: { selector: '#row-TCK-7736 .handle', nudge: { x: 0, y: -10 } },
          },
        ],
      }),
    }),
  );
}

if (isMain(import.meta.url)) await main();
