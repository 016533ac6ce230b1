// An agent loop for Gemini computer use (generateContent with the computerUse tool) with trueclick as the
// executor. The conversation is Gemini's `contents`: the model's turn holds function_call parts (several
// per turn), and the next user turn one FunctionResponse per call with the page's url and the new
// screenshot as an inline image part; a call the model flagged with safety_decision runs only after the
// user confirmed, and its response says so. Swap `geminiStandIn(...)` for `new GoogleGenAI({})` and nothing
// else changes.
//
//   npm run build && node dist/examples/agents/gemini.js

import { familyReply, type Screenshot } from '../../src/index.js';
import { AgentRun } from './agent-run.js';
import { type AgentOptions, type AgentSummary, expectFrom, TARGET_INSTRUCTION } from './loop.js';
import { exampleMain, type Intent, isMain, StandInBrain, type StandInOptions } from './stand-in.js';

export interface FunctionCall {
  name: string;
  id?: string;
  args: Record<string, unknown>;
}

export interface Part {
  text?: string;
  inlineData?: { mimeType: string; data: string };
  functionCall?: FunctionCall;
  functionResponse?: {
    name: string;
    id?: string;
    response: Record<string, unknown>;
    parts?: Array<{ inlineData: { mimeType: string; data: string } }>;
  };
}

export interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

export interface GenerateContentRequest {
  model: string;
  contents: Content[];
  config: { systemInstruction: string; tools: Array<Record<string, unknown>> };
}

/** The part of `@google/genai`'s client this loop calls: `new GoogleGenAI({})` has it. */
export interface GeminiClient {
  models: {
    generateContent(req: GenerateContentRequest): Promise<{ candidates?: Array<{ content?: Content }> }>;
  };
}

export const GEMINI_MODEL = 'gemini-2.5-computer-use-preview-10-2025';
/** The reference agent keeps screenshots in the 3 most recent turns only. */
const SCREENSHOT_TURNS = 3;

const inline = (shot: Screenshot) => ({ inlineData: { mimeType: shot.mimeType, data: shot.base64 } });
const textOf = (parts: Part[]) =>
  parts
    .flatMap((p) => [p.text, p.functionResponse?.response.error])
    .filter((t): t is string => typeof t === 'string' && t !== '')
    .join('\n');

/** Drops the screenshots of older function responses, as the reference agent does. */
function keepRecentScreenshots(contents: Content[]): void {
  let seen = 0;
  for (const c of [...contents].reverse()) {
    const responses = c.parts.filter((p) => p.functionResponse?.parts);
    if (responses.length === 0) continue;
    if (++seen <= SCREENSHOT_TURNS) continue;
    for (const p of responses) if (p.functionResponse) delete p.functionResponse.parts;
  }
}

export async function runGeminiAgent(o: AgentOptions<GeminiClient>): Promise<AgentSummary> {
  const run = new AgentRun('gemini', 'gemini', o);
  let shot = await o.session.screenshot();
  const contents: Content[] = [{ role: 'user', parts: [{ text: o.task }, inline(shot)] }];
  while (run.nextTurn()) {
    const res = await o.client.models.generateContent({
      model: GEMINI_MODEL,
      contents,
      config: {
        systemInstruction: TARGET_INSTRUCTION,
        tools: [{ computerUse: { environment: 'ENVIRONMENT_BROWSER' } }],
      },
    });
    const turn = res.candidates?.[0]?.content ?? { role: 'model', parts: [] };
    contents.push(turn);
    const calls = turn.parts.filter((p) => p.functionCall);
    // No function call: the model answered in text, it is finished.
    if (calls.length === 0) return run.summary('done', contents, textOf(turn.parts));

    const expect = expectFrom(textOf(turn.parts));
    let x = await run.execute(shot, turn, expect);
    if (x.kind === 'safety') {
      // safety_decision require_confirmation: nothing ran. The user decides; a yes is sent back with the call.
      const yes = await run.ask({ kind: 'safety', message: x.message });
      if (!yes) return run.summary('declined', contents, x.message);
      x = await run.execute(shot, turn, expect, { safety_acknowledged: true });
    }
    if (x.kind === 'safety') return run.summary('error', contents, x.message);
    shot = x.screenshot;
    let reply: Content;
    if (x.result) {
      // One FunctionResponse per call: url, error for the ones that failed, safety_acknowledgement, the image.
      reply = familyReply(x.result, shot) as unknown as Content;
    } else {
      reply = {
        role: 'user',
        parts: calls.map((p) => ({
          functionResponse: {
            name: p.functionCall?.name ?? '',
            ...(p.functionCall?.id ? { id: p.functionCall.id } : {}),
            response: { url: shot.frame.capture.url, error: x.note },
            parts: [inline(shot)],
          },
        })),
      };
    }
    if (x.result && x.note) reply.parts.push({ text: x.note });
    contents.push(reply);
    keepRecentScreenshots(contents);
  }
  return run.summary('max_turns', contents);
}

// ─── The stand-in: generateContent's call shape, a scripted brain ───────────────────────────────────────

function callFor(intent: Exclude<Intent, { kind: 'done' }>): FunctionCall {
  switch (intent.kind) {
    case 'click':
      return {
        name: 'click_at',
        args: {
          x: intent.at[0],
          y: intent.at[1],
          ...(intent.sensitive
            ? { safety_decision: { decision: 'require_confirmation', explanation: intent.sensitive } }
            : {}),
        },
      };
    case 'fill':
      return {
        name: 'type_text_at',
        args: {
          x: intent.at[0],
          y: intent.at[1],
          text: intent.text,
          press_enter: false,
          clear_before_typing: true,
        },
      };
    case 'drag':
      return {
        name: 'drag_and_drop',
        args: {
          x: intent.from[0],
          y: intent.from[1],
          destination_x: intent.to[0],
          destination_y: intent.to[1],
        },
      };
  }
}

/** The newest screenshot in the contents (an inline part, or inside a function response). */
function lastImage(contents: Content[]): string {
  let image = '';
  for (const c of contents)
    for (const p of c.parts) {
      if (p.inlineData) image = p.inlineData.data;
      for (const q of p.functionResponse?.parts ?? []) image = q.inlineData.data;
    }
  return image;
}

/** A scripted model with generateContent's call shape. */
export function geminiStandIn(o: StandInOptions): GeminiClient {
  const brain = new StandInBrain('gemini', o);
  return {
    models: {
      async generateContent({ contents }) {
        const feedback = textOf(contents.at(-1)?.parts ?? []);
        const { intent, thought } = await brain.next(feedback, lastImage(contents));
        const parts: Part[] =
          intent.kind === 'done'
            ? [{ text: intent.text }]
            : [{ text: thought }, { functionCall: callFor(intent) }];
        return { candidates: [{ content: { role: 'model', parts } }] };
      },
    },
  };
}

async function main() {
  await exampleMain('/type', ({ session, perceive }) =>
    runGeminiAgent({
      session,
      task: 'Fill in the contact form for Ada Lovelace and send it.',
      client: geminiStandIn({
        perceive,
        plan: [
          { do: 'fill', target: { role: 'textbox', name: 'Name' }, text: 'Ada Lovelace' },
          { do: 'click', target: { role: 'button', name: 'Submit' } },
        ],
      }),
    }),
  );
}

if (isMain(import.meta.url)) await main();
