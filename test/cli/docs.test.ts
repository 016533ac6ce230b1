// `npm run docs` (scripts/docs.mjs) regenerates every picture from real screenshots, and the committed
// docs/presets.md is what it generates from the presets (so a changed preset cannot leave the docs behind).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PICTURES = [
  'units',
  'box-format',
  'axis-order',
  'origin',
  'rectangle',
  'device-css',
  'connect',
  'report',
  'approval',
];

test('scripts/docs.mjs writes the ten pictures and the presets table the repository holds', async () => {
  const out = mkdtempSync(join(os.tmpdir(), 'tc-docs-'));
  const r = spawnSync(process.execPath, ['scripts/docs.mjs'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, DOCS_OUT: out },
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  for (const name of PICTURES) {
    const meta = await sharp(join(out, 'pictures', `${name}.png`)).metadata();
    assert.equal(meta.width, 1000, name);
    // The committed picture exists and has the same shape.
    const kept = await sharp(join(ROOT, 'docs/pictures', `${name}.png`)).metadata();
    assert.equal(kept.height, meta.height, name);
  }
  assert.equal(
    readFileSync(join(out, 'presets.md'), 'utf8'),
    readFileSync(join(ROOT, 'docs/presets.md'), 'utf8'),
    'docs/presets.md is stale: run npm run docs',
  );
});
