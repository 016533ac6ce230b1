// Rewrites what is generated from the built tool list: the README's tool reference (groups, their token
// cost, tools, target fields) and the token costs `serve --help` prints (src/mcp/cap-costs.ts). `npm run
// readme` builds first, and again when the costs changed, so dist holds them too.
import { readFileSync, writeFileSync } from 'node:fs';
import { groupCosts } from '../dist/bench/tool-tokens.js';
import { withCosts } from '../dist/src/mcp/cap-costs-file.js';
import { ALL_CAPS } from '../dist/src/mcp/caps.js';
import { inputDocs } from '../dist/src/mcp/field-docs.js';
import { answerFields, enabledTools, listTools } from '../dist/src/mcp/server.js';
import { toolDocs, toolReference, withToolDocs } from '../dist/src/mcp/tool-table.js';

const costs = groupCosts();
const caps = new Map(enabledTools(ALL_CAPS).map((t) => [t.name, t.cap ?? 'core']));
const click = enabledTools(ALL_CAPS).find((t) => t.name === 'browser_click');

function rewrite(rel, update, what) {
  const path = new URL(`../${rel}`, import.meta.url);
  const before = readFileSync(path, 'utf8');
  const after = update(before);
  if (after === before) console.log(`${rel}: ${what} already up to date`);
  else {
    writeFileSync(path, after);
    console.log(`${rel}: ${what} rewritten`);
  }
  return after !== before;
}

rewrite(
  'README.md',
  (r) =>
    withToolDocs(
      r,
      toolDocs(listTools(ALL_CAPS), (n) => caps.get(n), costs, inputDocs(click.inputSchema)),
    ),
  'tool reference',
);
const all = listTools(ALL_CAPS);
const reference = toolReference(
  enabledTools(ALL_CAPS).map((t) => ({
    tool: all.find((x) => x.name === t.name),
    cap: t.cap ?? 'core',
    answer: answerFields(t),
    docs: inputDocs(t.inputSchema),
  })),
  readFileSync(new URL('../docs/tools-preamble.md', import.meta.url), 'utf8'),
);
rewrite('docs/tools.md', () => `${reference}\n`, 'tool reference');
if (rewrite('src/mcp/cap-costs.ts', (s) => withCosts(s, costs), 'group token costs'))
  console.log('src/mcp/cap-costs.ts changed: run `npm run build` (npm run readme does) so dist has it');
