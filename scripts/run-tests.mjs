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
const r = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
