// The package as a user gets it: `npm pack` (of the build the tests run on), installed into an empty project
// from the tarball, then imported the three ways the README shows (trueclick, trueclick/geometry,
// trueclick/test), type-checked against its own declarations, and its CLI run.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test('npm pack installs into an empty project, imports, type-checks and runs its CLI', {
  timeout: 300_000,
}, () => {
  const tmp = mkdtempSync(join(os.tmpdir(), 'tc-pack-'));
  // --ignore-scripts: the build is the one these tests run on (prepack would rebuild it under them).
  execFileSync(NPM, ['pack', '--ignore-scripts', '--pack-destination', tmp, '--loglevel=error'], {
    cwd: ROOT,
  });
  const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
  assert.ok(tgz, 'npm pack wrote a tarball');
  const proj = join(tmp, 'app');
  execFileSync('mkdir', [proj]);
  writeFileSync(join(proj, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  execFileSync(
    NPM,
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(tmp, tgz)],
    {
      cwd: proj,
      timeout: 240_000,
    },
  );
  writeFileSync(
    join(proj, 'check.ts'),
    [
      "import { TrueclickSession, trueclickForPage, type ClickReport } from 'trueclick';",
      "import { resolveRequest, PRESET_NAMES } from 'trueclick/geometry';",
      "import { expectGrounded, type GroundingOptions } from 'trueclick/test';",
      'const r: ClickReport | null = null;',
      "const o: Partial<GroundingOptions> = { model: 'claude' };",
      'export const all = [TrueclickSession, trueclickForPage, resolveRequest, PRESET_NAMES, expectGrounded, r, o];',
    ].join('\n'),
  );
  writeFileSync(
    join(proj, 'run.mjs'),
    [
      "const main = await import('trueclick');",
      "const geometry = await import('trueclick/geometry');",
      "const t = await import('trueclick/test');",
      'const frame = { image: { width: 2560, height: 1600 }, css: { width: 1280, height: 800 }, scroll: { x: 0, y: 0 }, devicePixelRatio: 2 };',
      "const p = geometry.resolveRequest({ x: 2204, y: 1272, units: 'px' }, frame);",
      'console.log(typeof main.TrueclickSession, typeof main.trueclickForPage, typeof t.expectGrounded, JSON.stringify(p.point ?? p));',
    ].join('\n'),
  );
  const out = execFileSync(process.execPath, ['run.mjs'], { cwd: proj, encoding: 'utf8' });
  assert.match(out, /^function function function .*1102.*636/, out);
  execFileSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      'check.ts',
    ],
    { cwd: proj, encoding: 'utf8' },
  );
  const version = execFileSync(join(proj, 'node_modules/.bin/trueclick'), ['--version'], {
    encoding: 'utf8',
  });
  assert.match(version, /^\d+\.\d+\.\d+/);
});
