/**
 * What the model reads of a tool list on every step: each tool's name, description and input schema (what
 * clients hand the model), counted in characters and in tokens of OpenAI's o200k_base (gpt-tokenizer,
 * bundled: nothing downloaded), beside the whole tools/list answer. Used by the bench, `npm run readme`
 * (the README's figures and src/mcp/cap-costs.ts) and the budget test.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { CAP_NAMES, type Cap, parseCaps } from '../src/mcp/caps.js';
import { listTools } from '../src/mcp/server.js';

export interface Count {
  chars: number;
  tokens: number;
}

export interface ToolListCost {
  tools: number;
  /** Per tool: what the model reads of it. */
  perTool: Array<{ name: string } & Count>;
  /** What the model reads: name, description and input schema of every tool. */
  model: Count;
  /** The whole tools/list answer (output schemas, titles, annotations too). */
  whole: Count;
}

export function count(text: string): Count {
  return { chars: text.length, tokens: encode(text).length };
}

export function costOf(tools: Tool[]): ToolListCost {
  const perTool = tools.map((t) => ({
    name: t.name,
    ...count(JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema })),
  }));
  const sum = (k: keyof Count) => perTool.reduce((a, t) => a + t[k], 0);
  return {
    tools: tools.length,
    perTool,
    model: { chars: sum('chars'), tokens: sum('tokens') },
    whole: count(JSON.stringify({ tools })),
  };
}

/** Tokens the model reads for core alone, and what each other group adds to it. */
export function groupCosts(): Record<Cap, number> {
  const core = costOf(listTools(parseCaps())).model.tokens;
  const out = { core } as Record<Cap, number>;
  for (const cap of CAP_NAMES)
    if (cap !== 'core') out[cap] = costOf(listTools(parseCaps([cap]))).model.tokens - core;
  return out;
}
