/**
 * `npm run load`: ≥ 8 concurrent MCP sessions over streamable HTTP, each doing screenshot + guarded click
 * cycles on its own page, on a local Chromium and then through a browser server (a remote engine). Prints
 * what the pages recorded (lost clicks, cross-session clicks), p50/p99 latency and resident memory.
 * `--fleet 3`: the same on servers behind HAProxy, both MCP eras, one server killed halfway (bench/fleet-load.ts).
 */
import { SingleBar } from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { startFixtureServer } from '../fixtures/server.js';
import { fleetHeld, fleetReport, runFleetLoad } from './fleet-load.js';
import { type LoadResult, loadReport, runLoad } from './load-run.js';

const count = (min: number, max: number) => (v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new InvalidArgumentError(`a whole number from ${min} to ${max}`);
  return n;
};

const program = new Command('load')
  .description(
    'Concurrent MCP sessions over HTTP against one trueclick server; counts from the pages’ own records',
  )
  .option('--sessions <n>', 'concurrent MCP sessions', count(1, 64), 8)
  .option('--cycles <n>', 'screenshot + click cycles per session', count(1, 10_000), 50)
  .option('--engine <which>', 'local, remote (a playwright-core browser server) or both', 'both')
  .option(
    '--fleet <n>',
    'servers behind HAProxy (examples/fleet/haproxy.cfg), both MCP eras, one server killed halfway; 1 server first for comparison (default 24 sessions × 30 cycles)',
    count(3, 3),
  )
  .parse();
const o = program.opts<{ sessions: number; cycles: number; engine: string; fleet?: number }>();
if (!['local', 'remote', 'both'].includes(o.engine)) program.error('--engine must be local, remote or both');

const pages = await startFixtureServer();
if (o.fleet !== undefined) {
  const given = (k: string) => program.getOptionValueSource(k) !== 'default';
  const sessions = given('sessions') ? o.sessions : 24;
  const cycles = given('cycles') ? o.cycles : 30;
  let held = true;
  try {
    for (const servers of [1, 3] as const) {
      const bar = new SingleBar({
        format: `${servers} server${servers > 1 ? 's' : ' '} {bar} {value}/{total} cycles, {duration}s`,
        stream: process.stderr,
      });
      bar.start(sessions * cycles, 0);
      const r = await runFleetLoad(pages, {
        servers,
        sessions,
        cycles,
        onCycle: () => bar.increment(),
      }).finally(() => bar.stop());
      process.stdout.write(`${fleetReport(r)}\n`);
      held &&= fleetHeld(r);
    }
  } finally {
    await pages.close();
  }
  if (!held)
    process.stdout.write(
      'load: the fleet lost, crossed or misrouted something, or left a session untold (see above)\n',
    );
  process.exit(held ? 0 : 1);
}
const results: LoadResult[] = [];
let failed = false;
try {
  for (const remote of o.engine === 'both' ? [false, true] : [o.engine === 'remote']) {
    const bar = new SingleBar({
      format: `${remote ? 'remote' : 'local '} {bar} {value}/{total} cycles, {duration}s`,
      stream: process.stderr,
    });
    bar.start(o.sessions * o.cycles, 0);
    const r = await runLoad(pages, {
      sessions: o.sessions,
      cycles: o.cycles,
      remote,
      onCycle: () => bar.increment(),
    }).finally(() => bar.stop());
    results.push(r);
    process.stdout.write(`${loadReport(r)}\n`);
    failed ||= r.lost > 0 || r.mixups > 0 || r.wrongFrames > 0 || r.failedCalls > 0;
  }
} finally {
  await pages.close();
}
if (failed) process.stdout.write('load: some clicks were lost or crossed sessions (see above)\n');
process.exit(failed ? 1 : 0);
