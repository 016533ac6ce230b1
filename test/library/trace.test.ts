// The library session traced with SessionOptions.trace, as `serve --trace-dir` traces the MCP tools: the same
// records, the password masked, a report that reads them.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFixtureServer } from '../../fixtures/server.js';
import { TrueclickSession } from '../../src/actions/session/session.js';
import { readRecords, writeReport } from '../../src/cli/report.js';
import { sessionsIn } from '../../src/trace/trace.js';

test('SessionOptions.trace records each action the library user makes, masks a password, reports', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trueclick-libtrace-'));
  const srv = await startFixtureServer();
  const session = new TrueclickSession({
    deviceScaleFactor: 2,
    trace: { dir },
    urlPolicy: { schemes: ['http', 'https', 'about', 'data'] },
  });
  try {
    await session.navigate(srv.url('/approve', { run: 'libtrace' }));
    const shot = await session.screenshot();
    const k = shot.frame.geometry.image.width / shot.frame.geometry.css.width;
    const r = await session.click({ frame: shot.frame.id, x: 1102 * k, y: 636 * k });
    assert.equal(r.verdict, 'OK', r.message);
    await session.navigate('data:text/html,<input type=password autofocus>');
    await session.type('s3cret-Pa55', {});
    const folder = sessionsIn(dir).at(-1) as string;
    const records = readRecords(join(folder, 'trace.jsonl'));
    assert.deepEqual(
      records.map((x) => x.tool),
      ['browser_navigate', 'browser_screenshot', 'browser_click', 'browser_navigate', 'browser_type'],
    );
    assert.equal(records[2]?.frame, shot.frame.id);
    assert.ok(readdirSync(join(folder, 'frames')).includes(`${shot.frame.id}.png`));
    assert.equal(records[4]?.args.text, '•••');
    assert.ok(!readFileSync(join(folder, 'trace.jsonl'), 'utf8').includes('s3cret-Pa55'));
    assert.equal(writeReport(dir).steps, 5);
  } finally {
    await session.close();
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
