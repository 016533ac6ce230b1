import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../helpers/mcp-client.js';

// A fleet's names and secret are checked before the server listens: a name the proxy could not route on,
// or a secret short enough to guess, stops `serve` with a sentence saying what to use instead.

const serve = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CLI, 'serve', '--http', '0', ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 20_000,
  });

test('--instance and TRUECLICK_INSTANCE take a-z, 0-9 and - only; the fleet secret needs 16 characters', () => {
  const flag = serve(['--instance', 'TC_1']);
  assert.notEqual(flag.status, 0);
  assert.match(flag.stderr, /"TC_1" is not a fleet name: use 1-32 of a-z, 0-9 and -/);

  const env = serve([], { TRUECLICK_INSTANCE: 'x'.repeat(33) });
  assert.equal(env.status, 2);
  assert.match(env.stderr, /"x+" is not a fleet name/);

  const secret = serve(['--instance', 'tc1', '--fleet-secret', 'short']);
  assert.equal(secret.status, 2);
  assert.match(secret.stderr, /fleet secret is 5 characters; use at least 16/);
});
