// runDiagnose (src/cli/diagnose.ts) on the example files and on broken ones.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DiagnoseInputError, runDiagnose } from '../../src/cli/diagnose.js';

const dir = mkdtempSync(join(tmpdir(), 'trueclick-diagnose-'));
function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function assertInputError(path: string, problem: RegExp): void {
  assert.throws(
    () => runDiagnose(path),
    (err: unknown) =>
      err instanceof DiagnoseInputError && err.code === 'DIAGNOSE_INPUT' && problem.test(err.message),
  );
}

describe('runDiagnose', () => {
  for (const example of ['examples/classic-downscale.json', 'examples/classic-downscale.csv']) {
    it(`${example}: table, verdict and the named cause`, () => {
      const out = runDiagnose(example);
      assert.match(out, /samples: 5/);
      assert.match(out, /^\s*x\s+1\.22\d\d\s+-?0\.\d\d\s+0\.\d\d$/m);
      assert.match(out, /^\s*y\s+1\.22\d\d/m);
      assert.match(out, /verdict: uniform-scale/);
      assert.match(out, /1568\/1280 = 1\.225: a 1568-px-wide image read as CSS px of a 1280-px viewport/);
    });
  }
  it('reads the {intended, actual} JSON shape', () => {
    const p = file(
      'lists.json',
      JSON.stringify({
        intended: [
          [1, 2],
          [300, 40],
          [50, 600],
        ],
        actual: [
          [2, 1],
          [40, 300],
          [600, 50],
        ],
      }),
    );
    assert.match(runDiagnose(p), /verdict: axes-swapped/);
  });
  it('missing file', () => assertInputError(join(dir, 'nope.json'), /Cannot read .*ENOENT/));
  it('broken JSON', () => assertInputError(file('bad.json', '[{"intended": [1, 2]'), /not valid JSON/));
  it('a sample without actual', () =>
    assertInputError(file('half.json', '[{"intended": [1, 2]}]'), /item 0 actual/));
  it('lists of different lengths', () =>
    assertInputError(
      file('uneven.json', '{"intended": [[1,2]], "actual": []}'),
      /1 points but "actual" has 0/,
    ));
  it('a CSV without the header', () => assertInputError(file('nohead.csv', '1,2,3,4\n'), /lacks intended_x/));
  it('a CSV row with text', () =>
    assertInputError(file('text.csv', 'intended_x,intended_y,actual_x,actual_y\n1,2,three,4\n'), /Line 2/));
  it('an empty sample list', () => assertInputError(file('empty.json', '[]'), /no samples/));
  it('says what the file should hold', () => {
    try {
      runDiagnose(file('bad2.json', '42'));
      assert.fail('expected an error');
    } catch (err) {
      assert.ok(err instanceof DiagnoseInputError);
      assert.match(err.message, /intended_x,intended_y,actual_x,actual_y/);
    }
  });
});
