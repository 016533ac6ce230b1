import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { imageSize } from '../../src/geometry/index.js';
import { CLI } from '../helpers/mcp-client.js';

const run = promisify(execFile);

describe('CLI', () => {
  test('trueclick demo (npm start): the naive pipeline misses, trueclick hits and refuses the stale row', async () => {
    const out = mkdtempSync(join(tmpdir(), 'trueclick-demo-'));
    try {
      const { stdout } = await run(process.execPath, [CLI, 'demo', '--out', out, '--json'], {
        timeout: 120_000,
      });
      const { rows, picture } = JSON.parse(stdout) as {
        rows: Array<{ naive: string; trueclick: string }>;
        picture: string;
      };
      const [approve, checkbox, stale] = rows;
      assert.match(approve?.naive ?? '', /missed: outside the 1280×800 viewport/);
      assert.equal(approve?.trueclick, 'OK: clicked CSS (1102, 636), hit #approve');
      assert.match(checkbox?.naive ?? '', /missed/);
      assert.equal(checkbox?.trueclick, 'OK: checked #cb1');
      assert.match(stale?.naive ?? '', /deleted TCK-77\d\d \(the wrong ticket\)/);
      assert.match(
        stale?.trueclick ?? '',
        /^STALE_TARGET, nothing deleted; new screenshot f\d+, mark \[\d+\] → OK, deleted TCK-7743$/,
      );
      const png = join(out, 'trueclick-demo.png');
      assert.ok(existsSync(png), 'the annotated screenshot was written');
      assert.ok(imageSize(readFileSync(png)).width > 1000);
      assert.equal(picture, png);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('trueclick doctor reports the browser and the measured frame', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'doctor', '--device-scale-factor', '2'], {
      timeout: 60_000,
    });
    assert.match(stdout, /browser: .*chromium/i);
    assert.match(stdout, /devicePixelRatio 2/);
    assert.match(stdout, /All good/);
  });

  test('trueclick doctor with a missing browser says how to install one', async () => {
    await assert.rejects(
      run(process.execPath, [CLI, 'doctor', '--executable-path', '/nonexistent/chromium'], {
        timeout: 30_000,
      }),
      (err: { stdout?: string; code?: number }) => {
        assert.equal(err.code, 1);
        assert.match(err.stdout ?? '', /apt-get install -y chromium/);
        return true;
      },
    );
  });
});
