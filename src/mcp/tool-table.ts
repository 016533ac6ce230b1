import type { Tool } from '@modelcontextprotocol/server';
import { CAP_NAMES, CAPS, type Cap } from './caps.js';
import { conventionShape, TARGET_KEYS } from './target-schema.js';

// The README's tool reference, generated from the tool list (as chrome-devtools-mcp generates its
// docs/tool-reference.md), so it cannot drift from what tools/list says. `npm run readme` rewrites it; a
// test fails when the README's copy is stale.

export const START =
  '<!-- tools:start: generated from the tool list by `npm run readme`; do not edit by hand -->';
export const END = '<!-- tools:end -->';

type Props = Record<string, { description?: string }>;

/** A tool takes "a target" when its schema has every field of one (x, y, box, mark, model_output). */
function takesTarget(props: Props): boolean {
  return TARGET_KEYS.every((k) => k in props);
}

const n = (v: number) => v.toLocaleString('en-US');

const CONVENTION = Object.keys(conventionShape);
const TARGET_FIELDS = new Set<string>([...TARGET_KEYS, 'frame', ...CONVENTION, 'expect']);

/** The first sentence ("e.g." and "i.e." do not end one). */
function firstSentence(s: string): string {
  const m = /^(.+?(?<!e\.g|i\.e)[.!?])(\s|$)/.exec(s);
  return (m?.[1] ?? s).replace(/\|/g, '\\|');
}

function argumentsOf(tool: Tool): string {
  const props = (tool.inputSchema.properties ?? {}) as Props;
  const required = new Set(tool.inputSchema.required ?? []);
  const target = takesTarget(props);
  const convention = CONVENTION.every((k) => k in props);
  const own = Object.keys(props)
    .filter((k) => !(target && TARGET_FIELDS.has(k)) && !(convention && CONVENTION.includes(k)))
    .map((k) => `\`${k}${required.has(k) ? '' : '?'}\``);
  const groups = target ? ['a target'] : convention ? ['the convention fields'] : [];
  return [...groups, ...own].join(', ') || '—';
}

/**
 * The markdown between the README's markers: the groups with their cost, the tools of every group, then the
 * fields of "a target". `tools` is the list with every group on; `capOf` names each tool's group.
 */
export function toolDocs(tools: Tool[], capOf: (name: string) => Cap, costs: Record<Cap, number>): string {
  const groups = CAP_NAMES.map(
    (c) =>
      `| \`${c}\` | ${c === 'core' ? n(costs[c]) : `+${n(costs[c])}`} | ${CAPS[c].replace(/\|/g, '\\|')} |`,
  );
  const rows = tools.map(
    (t) => `| \`${t.name}\` | ${capOf(t.name)} | ${argumentsOf(t)} | ${firstSentence(t.description ?? '')} |`,
  );
  const click = tools.find((t) => t.name === 'browser_click');
  const props = (click?.inputSchema.properties ?? {}) as Props;
  const fields = [...TARGET_FIELDS]
    .filter((k) => k in props)
    .map((k) => `| \`${k}\` | ${(props[k]?.description ?? '').replace(/\|/g, '\\|')} |`);
  return [
    START,
    '`trueclick serve --caps pointer,forms` (or `all`) adds groups to core; tokens are what the model reads of the',
    'tool definitions on every step (o200k_base, counted by `npm run readme`):',
    '',
    '| group | tokens | what it adds |',
    '|---|---|---|',
    ...groups,
    '',
    '| tool | group | arguments | what it does |',
    '|---|---|---|---|',
    ...rows,
    '',
    '"a target" is one of `x`+`y`, `box`, `mark` or `model_output`, read with these fields (`mark` comes with the',
    'marks group, `units` … `shown_height` with the convention group; full reference: docs/tools.md):',
    '',
    '| field | meaning |',
    '|---|---|',
    ...fields,
    END,
  ].join('\n');
}

/** The README with its tool reference replaced by `docs`; throws when the markers are missing. */
export function withToolDocs(readme: string, docs: string): string {
  const a = readme.indexOf(START);
  const b = readme.indexOf(END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${START} … ${END} block`);
  return `${readme.slice(0, a)}${docs}${readme.slice(b + END.length)}`;
}

type JsonProp = { description?: string; type?: unknown; enum?: unknown[]; items?: JsonProp };

function typeOf(p: JsonProp): string {
  if (p.enum) return p.enum.map((v) => `\`${String(v)}\``).join(' | ');
  if (p.type === 'array') return `${p.items ? typeOf(p.items) : 'any'}[]`;
  return Array.isArray(p.type) ? p.type.join(' | ') : String(p.type ?? 'any');
}

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * docs/tools.md: the reference the tool definitions leave out so that the model does not pay for it on
 * every step: every tool with its group, every argument with its type, and every field of its answer.
 */
export function toolReference(
  tools: Array<{ tool: Tool; cap: Cap; answer: Record<string, JsonProp> }>,
  preamble: string,
): string {
  const parts = tools.map(({ tool, cap, answer }) => {
    const props = (tool.inputSchema.properties ?? {}) as Record<string, JsonProp>;
    const required = new Set(tool.inputSchema.required ?? []);
    const args = Object.entries(props).map(
      ([k, p]) => `| \`${k}${required.has(k) ? '' : '?'}\` | ${cell(typeOf(p))} | ${cell(p.description)} |`,
    );
    const out = Object.entries(answer).map(([k, p]) => `| \`${k}\` | ${cell(p.description)} |`);
    return [
      `## \`${tool.name}\` (${cap})`,
      '',
      tool.description ?? '',
      '',
      ...(args.length ? ['| argument | type | meaning |', '|---|---|---|', ...args, ''] : []),
      'Its answer (`structuredContent`):',
      '',
      '| field | meaning |',
      '|---|---|',
      ...out,
      '',
    ].join('\n');
  });
  return [preamble.trim(), '', ...parts].join('\n');
}
