// Rewrites the README's generated blocks (the tool reference) from the built tool list: `npm run readme`.
import { readFileSync, writeFileSync } from 'node:fs';
import { listTools } from '../dist/src/mcp/server.js';
import { toolDocs, withToolDocs } from '../dist/src/mcp/tool-table.js';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withToolDocs(before, toolDocs(listTools()));
if (after === before) console.log('README.md: tool reference already up to date');
else {
  writeFileSync(path, after);
  console.log('README.md: tool reference rewritten from the tool list');
}
