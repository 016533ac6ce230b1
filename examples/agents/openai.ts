// An agent loop for OpenAI computer use (Responses API, the GA `computer` tool) with trueclick as the executor.
// The conversation is the Responses API's `input` list: the model's output items (reasoning, computer_call)
// go back in as they came, each computer_call is answered by a computer_call_output carrying the new
// screenshot as a data URL (and acknowledged_safety_checks once the user agreed). Swap
// `openaiStandIn(...)` for `new OpenAI()` and nothing else changes.
//
//   npm run build && node dist/examples/agents/openai.js

import { familyReply, type Screenshot } from '../../src/index.js';
import { AgentRun } from './agent-run.js';
import { type AgentOptions, type AgentSummary, expectFrom, TARGET_INSTRUCTION } from './loop.js';
import { dataOf, exampleMain, type Intent, isMain, StandInBrain, type StandInOptions } from './stand-in.js';

export interface SafetyCheck {
  id: string;
  code?: string;
  message?: string;
}

export interface ComputerCall {
  type: 'computer_call';
  id: string;
  call_id: string;
  status: 'completed';
  pending_safety_checks: SafetyCheck[];
  actions: Array<Record<string, unknown>>;
}

type Content =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'output_text'; text: string };

export type ResponseItem =
  | { type: 'message'; role: 'user' | 'assistant' | 'developer'; content: Content[] }
  | { type: 'reasoning'; id: string; summary: Array<{ type: 'summary_text'; text: string }> }
  | ComputerCall
  | {
      type: 'computer_call_output';
      call_id?: string;
      acknowledged_safety_checks?: SafetyCheck[];
      output: { type: 'computer_screenshot'; image_url?: string };
      current_url?: string;
    };

export interface ResponsesRequest {
  model: string;
  instructions: string;
  tools: Array<Record<string, unknown>>;
  input: ResponseItem[];
  reasoning: { summary: 'concise' };
  truncation: 'auto';
}

/** The part of the `openai` client this loop calls: `new OpenAI()` has it. */
export interface OpenAIClient {
  responses: { create(body: ResponsesRequest): Promise<{ output: ResponseItem[] }> };
}

export const OPENAI_MODEL = 'gpt-5.4';
const INSTRUCTIONS = `You operate a web browser with the computer tool. ${TARGET_INSTRUCTION}`;

const dataUrl = (shot: Screenshot) => `data:${shot.mimeType};base64,${shot.base64}`;
const userText = (text: string): ResponseItem => ({
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text }],
});

/** Reasoning summaries and message text of the output, where the model names its target. */
function textOf(items: ResponseItem[]): string {
  const out: string[] = [];
  for (const item of items) {
    if (item.type === 'reasoning') out.push(...item.summary.map((s) => s.text));
    if (item.type === 'message') for (const c of item.content) if ('text' in c) out.push(c.text);
  }
  return out.join('\n');
}

export async function runOpenAIAgent(o: AgentOptions<OpenAIClient>): Promise<AgentSummary> {
  const run = new AgentRun('openai', 'openai-cua', o);
  let shot = await o.session.screenshot();
  const input: ResponseItem[] = [
    {
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: o.task },
        { type: 'input_image', image_url: dataUrl(shot) },
      ],
    },
  ];
  while (run.nextTurn()) {
    const res = await o.client.responses.create({
      model: OPENAI_MODEL,
      instructions: INSTRUCTIONS,
      tools: [{ type: 'computer' }],
      input,
      reasoning: { summary: 'concise' },
      truncation: 'auto',
    });
    input.push(...res.output);
    const call = res.output.find((i): i is ComputerCall => i.type === 'computer_call');
    // No computer_call: the model is finished and says so in a message.
    if (!call) return run.summary('done', input, textOf(res.output));

    const expect = expectFrom(textOf(res.output));
    let x = await run.execute(shot, call, expect);
    if (x.kind === 'safety') {
      // pending_safety_checks: nothing ran. Ask the user; with a yes, send the same call acknowledged.
      const checks = call.pending_safety_checks;
      const yes = await run.ask({
        kind: 'safety',
        message: checks.map((c) => `${c.code ?? c.id}: ${c.message ?? ''}`).join('; '),
      });
      if (!yes) return run.summary('declined', input, x.message);
      x = await run.execute(shot, call, expect, { acknowledged_safety_checks: checks.map((c) => c.id) });
    }
    if (x.kind === 'safety') return run.summary('error', input, x.message);
    shot = x.screenshot;
    if (x.result) {
      // call_id, acknowledged_safety_checks and current_url as the family wants them, the screenshot as a data URL.
      input.push(familyReply(x.result, shot) as unknown as ResponseItem);
    } else {
      input.push({
        type: 'computer_call_output',
        call_id: call.call_id,
        output: { type: 'computer_screenshot', image_url: dataUrl(shot) },
      });
    }
    // The computer_call_output has no text field: what the agent has to say goes in a user message.
    if (x.note) input.push(userText(x.note));
  }
  return run.summary('max_turns', input);
}

// ─── The stand-in: the Responses API's call shape, a scripted brain ─────────────────────────────────────

let ids = 0;
const next = (prefix: string) => `${prefix}_${(++ids).toString().padStart(4, '0')}`;

function actionsFor(intent: Exclude<Intent, { kind: 'done' }>): Array<Record<string, unknown>> {
  switch (intent.kind) {
    case 'click':
      return [{ type: 'click', button: 'left', x: intent.at[0], y: intent.at[1] }];
    case 'fill':
      return [
        { type: 'click', button: 'left', x: intent.at[0], y: intent.at[1] },
        { type: 'type', text: intent.text },
      ];
    case 'drag':
      return [
        {
          type: 'drag',
          path: [
            { x: intent.from[0], y: intent.from[1] },
            { x: intent.to[0], y: intent.to[1] },
          ],
        },
      ];
  }
}

/** The newest screenshot in the input, and what the loop said since the model's last call. */
function seen(input: ResponseItem[]): { image: string; feedback: string } {
  let image = '';
  for (const item of input) {
    if (item.type === 'computer_call_output' && item.output.image_url) image = item.output.image_url;
    if (item.type === 'message' && item.role === 'user')
      for (const c of item.content) if (c.type === 'input_image') image = c.image_url;
  }
  const lastCall = input.findLastIndex((i) => i.type === 'computer_call');
  return { image: dataOf(image), feedback: textOf(input.slice(lastCall + 1)) };
}

/** A scripted model with the Responses API's call shape. */
export function openaiStandIn(o: StandInOptions): OpenAIClient {
  const brain = new StandInBrain('openai-cua', o);
  return {
    responses: {
      async create({ input }) {
        const { image, feedback } = seen(input);
        const { intent, thought } = await brain.next(feedback, image);
        if (intent.kind === 'done')
          return {
            output: [
              { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: intent.text }] },
            ],
          };
        const flagged = intent.kind === 'click' && intent.sensitive;
        return {
          output: [
            { type: 'reasoning', id: next('rs'), summary: [{ type: 'summary_text', text: thought }] },
            {
              type: 'computer_call',
              id: next('cu'),
              call_id: next('call'),
              status: 'completed',
              pending_safety_checks: flagged
                ? [{ id: next('cu_sc'), code: 'sensitive_domain', message: intent.sensitive }]
                : [],
              actions: actionsFor(intent),
            },
          ],
        };
      },
    },
  };
}

async function main() {
  await exampleMain('/rw/list', ({ session, perceive }) =>
    runOpenAIAgent({
      session,
      task: 'Archive ticket TCK-7742.',
      client: openaiStandIn({
        perceive,
        plan: [
          {
            do: 'click',
            target: { role: 'link', name: 'Archive', within: 'TCK-7742' },
            sensitive: 'Archiving a ticket changes data.',
          },
        ],
      }),
      // A real agent asks the person at the keyboard; this example says yes and shows what it was asked.
      confirm: async (r) => {
        console.log(`confirm? ${r.message} -> yes`);
        return true;
      },
    }),
  );
}

if (isMain(import.meta.url)) await main();
