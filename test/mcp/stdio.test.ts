import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { CLI } from '../helpers/mcp-client.js';

test('a client that closes its end of stdout: the server ends cleanly (exit 0), not with an EPIPE crash', async () => {
  const child = spawn(process.execPath, [CLI, 'serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '0' } },
  });
  await new Promise((r) => child.stdout.once('data', r));
  child.stdout.destroy();
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  for (let i = 0; i < 5; i++) send({ jsonrpc: '2.0', id: 10 + i, method: 'tools/list' });
  const exit = await new Promise<[number | null, string | null] | 'running'>((resolve) => {
    child.on('exit', (code, signal) => resolve([code, signal]));
    setTimeout(() => resolve('running'), 15_000);
  });
  if (exit === 'running') child.kill('SIGKILL');
  assert.deepEqual(exit, [0, null], stderr);
  assert.doesNotMatch(stderr, /EPIPE/);
});
