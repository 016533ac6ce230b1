import type { Tool } from '@modelcontextprotocol/sdk/types.js';
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

/** The markdown between the README's markers: the tools, then the fields of "a target". */
export function toolDocs(tools: Tool[]): string {
  const rows = tools.map(
    (t) => `| \`${t.name}\` | ${argumentsOf(t)} | ${firstSentence(t.description ?? '')} |`,
  );
  const click = tools.find((t) => t.name === 'browser_click');
  const props = (click?.inputSchema.properties ?? {}) as Props;
  const fields = [...TARGET_FIELDS]
    .filter((k) => k in props)
    .map((k) => `| \`${k}\` | ${(props[k]?.description ?? '').replace(/\|/g, '\\|')} |`);
  return [
    START,
    '| tool | arguments | what it does |',
    '|---|---|---|',
    ...rows,
    '',
    '"a target" is one of `x`+`y`, `box`, `mark` or `model_output`, read with these fields (the convention fields are `model` … `shown_height`):',
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
