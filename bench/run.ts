/**
 * `npm run bench`: trueclick against a bare CDP capture and against Playwright MCP and chrome-devtools-mcp,
 * all in one run on this machine, plus the stale-guard and race counts of SPEC S7.
 * Prints the tables, writes bench/results/latest.json and (for a run of every section) bench/RESULTS.md.
 * Never part of the tests: timings on a shared 2-core machine are noisy, so nothing here asserts on time.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFixtureServer } from '../fixtures/server.js';
import { measureAgent } from './agent.js';
import { measureApproval } from './approval.js';
import { measureCapture } from './capture.js';
import { CHROMIUM } from './cdp.js';
import { measureClick, measureExposure } from './click.js';
import { createContext } from './context.js';
import { measureLiving } from './living.js';
import { finishMachine, machineInfo } from './machine.js';
import { measureMarks } from './marks.js';
import { type BenchOptions, parseArgs, SECTIONS, type Section as SectionName } from './options.js';
import { measurePixels } from './pixels.js';
import { cleanupAll, onCleanup } from './procs.js';
import { measureRace } from './race.js';
import { measureRealweb } from './realweb.js';
import { emptySection, merge, type Section } from './results.js';
import { measurePageSize, measureSessions } from './scale.js';
import { measureStale } from './stale.js';
import { markdownReport, missed, renderText, tables } from './table.js';
import { measureTokens } from './tokens.js';

const BENCH_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
/**
 * The bench stops by itself when one section runs this long, whatever hangs. Per section: the sections
 * together take longer (the living corpus alone about 16 min on 2 cores).
 */
const WATCHDOG_MS = 20 * 60_000;

async function main(): Promise<number> {
  let opts: BenchOptions;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  if (opts.runs < 10)
    process.stderr.write(`bench: note: --runs ${opts.runs} is below the 10 runs the SPEC asks for\n`);
  const t0 = Date.now();
  const machine = machineInfo(CHROMIUM, opts.runs, opts.warmup);
  const tmp = mkdtempSync(join(os.tmpdir(), 'trueclick-bench-'));
  onCleanup(() => rmSync(tmp, { recursive: true, force: true }));
  const fixture = await startFixtureServer();
  onCleanup(() => fixture.close());
  const pages = await startFixtureServer({ quietHits: true });
  onCleanup(() => pages.close());
  const ctx = createContext(opts, fixture, pages, tmp);
  onCleanup(() => ctx.close());

  const all = emptySection();
  const steps: Array<[SectionName, () => Promise<Section>]> = [
    ['capture', () => measureCapture(ctx)],
    ['click', () => measureClick(ctx)],
    ['marks', () => measureMarks(ctx)],
    ['exposure', () => measureExposure(ctx)],
    ['race', () => measureRace(ctx)],
    ['stale', () => measureStale(ctx)],
    ['realweb', () => measureRealweb(ctx)],
    ['sessions', () => measureSessions(ctx)],
    ['pagesize', () => measurePageSize(ctx)],
    ['pixels', () => measurePixels(ctx)],
    ['living', () => measureLiving(ctx)],
    ['agent', () => measureAgent(ctx)],
    ['approval', () => measureApproval(ctx)],
    ['tokens', () => measureTokens()],
  ];
  const failed: string[] = [];
  for (const [name, step] of steps) {
    if (!opts.only.has(name) || stopping) continue;
    watch(name);
    const s0 = Date.now();
    try {
      merge(all, await step());
      ctx.log(`${name} done in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
    } catch (err) {
      if (stopping) break;
      failed.push(name);
      ctx.warn(`section ${name} failed: ${(err as Error).stack ?? err}`);
    }
  }
  // Interrupted: the cleanup is under way and half-measured sections would only mislead.
  if (stopping) return 130;
  all.warnings.push(...ctx.warnings);
  await ctx.close();
  finishMachine(machine);

  const out = tables(all).map(renderText).join('\n\n');
  process.stdout.write(`\n${out}\n\n`);
  const miss = missed(all);
  if (miss.length > 0) {
    process.stdout.write(`MISSED TARGETS (${miss.length}):\n${miss.map((m) => `  - ${m}`).join('\n')}\n`);
  } else {
    process.stdout.write('Every checked target was met.\n');
  }
  const unchecked = all.checks.filter((c) => c.met === null);
  if (unchecked.length > 0)
    process.stdout.write(`Not checked (${unchecked.length}): ${unchecked.map((c) => c.thing).join('; ')}\n`);
  if (all.warnings.length > 0)
    process.stdout.write(`Warnings:\n${all.warnings.map((w) => `  - ${w.split('\n')[0]}`).join('\n')}\n`);

  const complete = SECTIONS.every((s) => opts.only.has(s)) && failed.length === 0;
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  const resultsDir = join(BENCH_DIR, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const json = {
    command,
    machine,
    options: { ...opts, only: [...opts.only] },
    seconds: Math.round((Date.now() - t0) / 1000),
    ...all,
    missed: miss,
    failedSections: failed,
  };
  writeFileSync(join(resultsDir, 'latest.json'), `${JSON.stringify(json, null, 2)}\n`);
  const md = markdownReport(all, machine, command);
  // RESULTS.md is committed: only a run of every section replaces it; a partial run writes beside the JSON.
  const mdPath = complete ? join(BENCH_DIR, 'RESULTS.md') : join(resultsDir, 'latest.md');
  writeFileSync(mdPath, md);
  process.stdout.write(`\nWrote ${join(resultsDir, 'latest.json')} and ${mdPath} (${json.seconds} s).\n`);
  return failed.length > 0 ? 1 : 0;
}

let stopping = false;
let cleaning: Promise<void> | undefined;
/** Closes everything once (a signal and the end of main may both get here), then exits. */
async function stop(code: number): Promise<never> {
  stopping = true;
  cleaning ??= cleanupAll();
  await cleaning;
  process.exit(code);
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    process.stderr.write(`\nbench: ${sig}, closing every browser and server it started\n`);
    void stop(130);
  });
}
let watchdog: NodeJS.Timeout | undefined;
function watch(section: string): void {
  clearTimeout(watchdog);
  watchdog = setTimeout(() => {
    process.stderr.write(
      `bench: section ${section} still running after ${WATCHDOG_MS / 60_000} min; stopping\n`,
    );
    void stop(1);
  }, WATCHDOG_MS);
  watchdog.unref();
}
watch('start');

main().then(
  (code) => stop(code),
  (err: unknown) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? err}\n`);
    return stop(1);
  },
);
