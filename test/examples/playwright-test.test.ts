// The Playwright Test example (examples/playwright-test) runs under @playwright/test itself, with Debian's
// Chromium: the trueclick/test helper as a user's suite calls it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('examples/playwright-test passes under @playwright/test', () => {
  const r = spawnSync(
    process.execPath,
    [
      'node_modules/@playwright/test/cli.js',
      'test',
      '-c',
      'dist/examples/playwright-test/playwright.config.js',
    ],
    { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { ...process.env, CI: '1' } },
  );
  const out = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.match(out, /3 passed/);
});

test('examples/playwright-agent: a Playwright page at DPR 2, the Claude loop with a stand-in model, the right row archived', async () => {
  const r = spawnSync(process.execPath, ['dist/examples/playwright-agent.js'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const out = `${r.stdout}\n${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.match(out, /verdicts: OK \| final: done/);
  // The server's own log, printed by the example: exactly the ticket asked for.
  assert.match(out, /server action log: \[\["archive","TCK-7741"\]\]/);
});
