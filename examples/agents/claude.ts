// An agent loop for Claude computer use (computer_toolset_20260801) with trueclick as the executor.
// The conversation is the Messages API's own: Claude answers with tool_use blocks (several per turn),
// trueclick runs them as emitted, and the next user turn holds one tool_result per tool_use with the new
// screenshot. Swap `claudeStandIn(...)` for `new Anthropic()` and nothing else changes.
//
//   npm run build && node dist/examples/agents/claude.js

import { familyReply, type Screenshot } from '../../src/index.js';
import { AgentRun } from './agent-run.js';
import { type AgentOptions, type AgentSummary, expectFrom, TARGET_INSTRUCTION } from './loop.js';
import { exampleMain, type Intent, isMain, StandInBrain, type StandInOptions } from './stand-in.js';

export type ClaudeBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; toolset_name?: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id?: string; is_error?: boolean; content: ClaudeBlock[] }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } };

export interface ClaudeMessage {
  role: 'user' | 'assistant';
  content: ClaudeBlock[];
}

export interface ClaudeRequest {
  model: string;
  max_tokens: number;
  system: string;
  tools: Array<Record<string, unknown>>;
  messages: ClaudeMessage[];
}

/** The part of `@anthropic-ai/sdk`'s client this loop calls: `new Anthropic()` has it. */
export interface ClaudeClient {
  messages: {
    create(body: ClaudeRequest): Promise<{ content: ClaudeBlock[]; stop_reason: string | null }>;
  };
}

export const CLAUDE_MODEL = 'claude-sonnet-5';
const SYSTEM = `You operate a web browser through the computer tools. Every screenshot shows the browser viewport. ${TARGET_INSTRUCTION}`;

const image = (shot: Screenshot): ClaudeBlock => ({
  type: 'image',
  source: { type: 'base64', media_type: shot.mimeType, data: shot.base64 },
});

const textOf = (blocks: ClaudeBlock[]): string =>
  blocks
    .flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'tool_result' ? [textOf(b.content)] : []))
    .join('\n');

export async function runClaudeAgent(o: AgentOptions<ClaudeClient>): Promise<AgentSummary> {
  const run = new AgentRun('anthropic', 'claude', o);
  let shot = await o.session.screenshot();
  const messages: ClaudeMessage[] = [
    { role: 'user', content: [{ type: 'text', text: o.task }, image(shot)] },
  ];
  while (run.nextTurn()) {
    const res = await o.client.messages.create({
      model: CLAUDE_MODEL,
      max_tokens: 4096,
      system: SYSTEM,
      tools: [{ type: 'computer_toolset_20260801', name: 'computer' }],
      messages,
    });
    messages.push({ role: 'assistant', content: res.content });
    const uses = res.content.filter((b) => b.type === 'tool_use');
    // No tool_use: Claude ended its turn, with its answer in the text.
    if (uses.length === 0) return run.summary('done', messages, textOf(res.content));

    const x = await run.execute(shot, uses, expectFrom(textOf(res.content)));
    if (x.kind === 'safety') return run.summary('error', messages, x.message); // Claude has no such gate
    shot = x.screenshot;
    let reply: ClaudeMessage;
    if (x.result) {
      // One tool_result per tool_use (is_error on the refused and the not run), the screenshot in the last.
      reply = familyReply(x.result, shot) as unknown as ClaudeMessage;
    } else {
      // trueclick refused the turn as a whole: every tool_use is answered with the error.
      reply = {
        role: 'user',
        content: uses.map((u, i) => ({
          type: 'tool_result',
          tool_use_id: (u as { id: string }).id,
          is_error: true,
          content: i === uses.length - 1 ? [{ type: 'text', text: x.note ?? '' }, image(shot)] : [],
        })),
      };
    }
    // What the agent adds (where the missed element was, that the page changed): text after the results.
    if (x.result && x.note) reply.content.push({ type: 'text', text: x.note });
    messages.push(reply);
  }
  return run.summary('max_turns', messages);
}

// ─── The stand-in: Claude's call shape, a scripted brain ────────────────────────────────────────────────

let ids = 0;
const toolUse = (name: string, input: Record<string, unknown>): ClaudeBlock => ({
  type: 'tool_use',
  id: `toolu_${(++ids).toString().padStart(4, '0')}`,
  name,
  toolset_name: 'computer',
  input,
});

/** Claude's computer toolset members for one intent. */
function blocksFor(intent: Intent): ClaudeBlock[] {
  switch (intent.kind) {
    case 'click':
      return [toolUse('left_click', { coordinate: intent.at })];
    case 'fill':
      return [toolUse('triple_click', { coordinate: intent.at }), toolUse('type', { text: intent.text })];
    case 'drag':
      return [toolUse('left_click_drag', { start_coordinate: intent.from, coordinate: intent.to })];
    case 'done':
      return [];
  }
}

/** The newest screenshot in the conversation: in the last user turn, inside its tool_results or beside them. */
function lastImage(messages: ClaudeMessage[]): string {
  const images: string[] = [];
  const walk = (blocks: ClaudeBlock[]) => {
    for (const b of blocks) {
      if (b.type === 'image') images.push(b.source.data);
      if (b.type === 'tool_result') walk(b.content);
    }
  };
  for (const m of messages) if (m.role === 'user') walk(m.content);
  const last = images.at(-1);
  if (!last) throw new Error('No screenshot in the conversation.');
  return last;
}

/** A scripted model with the Messages API's call shape. */
export function claudeStandIn(o: StandInOptions): ClaudeClient {
  const brain = new StandInBrain('claude', o);
  return {
    messages: {
      async create({ messages }) {
        const last = messages.at(-1);
        const { intent, thought } = await brain.next(textOf(last?.content ?? []), lastImage(messages));
        const blocks = blocksFor(intent);
        if (blocks.length === 0)
          return {
            content: [{ type: 'text', text: intent.kind === 'done' ? intent.text : '' }],
            stop_reason: 'end_turn',
          };
        return { content: [{ type: 'text', text: thought }, ...blocks], stop_reason: 'tool_use' };
      },
    },
  };
}

async function main() {
  await exampleMain('/rw/list', ({ session, perceive }) =>
    runClaudeAgent({
      session,
      task: 'Archive ticket TCK-7741.',
      client: claudeStandIn({
        perceive,
        plan: [{ do: 'click', target: { role: 'link', name: 'Archive', within: 'TCK-7741' } }],
      }),
    }),
  );
}

if (isMain(import.meta.url)) await main();
