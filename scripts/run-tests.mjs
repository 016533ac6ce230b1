// Runs the compiled test files with Node's test runner. Node 20 has no glob for --test, so we list them.
// TRUECLICK_TESTS=path-fragment narrows the run (e.g. TRUECLICK_TESTS=geometry npm test).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function list(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? list(join(dir, e.name)) : e.name.endsWith('.test.js') ? [join(dir, e.name)] : [],
  );
}

const only = process.env.TRUECLICK_TESTS;
const files = list('dist/test')
  .filter((f) => !only || f.includes(only))
  .sort();
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
// The load test fills both cores with eight sessions and measures memory, and the large-page test captures
// a page of 56 000 elements (seconds each): they run last and alone, so they neither starve the other tests
// (an Inspector call timed out beside the load) nor are measured amid them (a capture ran out of its 10 s).
// The pack test runs `npm install` (disk and CPU for seconds): beside browser tests it made their timings slip.
// The SIGTERM test keeps a CPU burner on each core for ~40 s (a shutdown under load is what it checks).
const HEAVY = ['load.test.js', 'large-page.test.js', 'pack.test.js', 'sigterm.test.js'];
const alone = files.filter((f) => HEAVY.some((h) => f.endsWith(h)));
const rest = files.filter((f) => !alone.includes(f));
// The MCP tests speak 2025-11-25 unless told (test/helpers/mcp-client.ts). These speak 2026-07-28 in a second
// pass: a call, its verdict and its errors, both transports, the trace and client log; the handle, fleet and
// conformance tests go through both eras themselves. The rest once: the whole folder twice would add ~7 minutes.
const MODERN = [
  'stdio',
  'http',
  'verdicts',
  'contract',
  'bad-input',
  'trace',
  'act',
  'url-policy',
  'approval',
  'approval-page',
].map((n) => `dist/test/mcp/${n}.test.js`);
const modern = files.filter((f) => MODERN.includes(f));
let status = 0;
for (const [batch, concurrency, era] of [
  [rest, 2, undefined],
  [modern, 2, '2026-07-28'],
  [alone, 1, undefined],
]) {
  if (batch.length === 0) continue;
  if (era) console.log(`# the same MCP tests again, speaking ${era}: ${batch.length} files`);
  const r = spawnSync(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...batch], {
    stdio: 'inherit',
    env: era ? { ...process.env, TRUECLICK_MCP_ERA: era } : process.env,
  });
  status ||= r.status ?? 1;
}
process.exit(status);
