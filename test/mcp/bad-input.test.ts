import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { frameOf, imagePx, type McpHarness, startStdio, structured, text } from '../helpers/mcp-client.js';

// SPEC S3: every bad input gets a clear, specific error and no click.
let srv: FixtureServer;
let mcp: McpHarness;
let run = 0;

before(async () => {
  srv = await startFixtureServer();
  mcp = await startStdio(['--device-scale-factor', '2']);
});
after(async () => {
  await mcp?.close();
  await srv?.close();
});

interface Refusal {
  verdict: string;
  dispatched: null;
  error?: { code: string; kind: string; message: string; hint: string; field?: string };
}

/** Opens /approve with a fresh run label and returns its frame. */
async function fresh() {
  const label = `bad-${++run}`;
  await mcp.call('browser_navigate', { url: srv.url('/approve', { run: label }) });
  return { label, f: await frameOf(mcp) };
}

async function refused(label: string, args: Record<string, unknown>, code: RegExp, says: RegExp) {
  const r = await mcp.call('browser_click', args);
  assert.equal(r.isError, true, `refused: ${text(r)}`);
  assert.match(text(r), says);
  // Every refusal, a schema error included, has the same structured shape.
  const s = structured<Refusal>(r);
  assert.equal(s.verdict, 'BAD_INPUT');
  assert.equal(s.dispatched, null);
  assert.match(s.error?.code ?? '', code, text(r));
  await new Promise((res) => setTimeout(res, 150));
  assert.equal(srv.hits({ run: label, type: 'click' }).length, 0, 'nothing was clicked');
}

describe('bad input is refused with a reason and changes nothing', () => {
  test('negative coordinate', async () => {
    const { label, f } = await fresh();
    await refused(
      label,
      { frame: f.id, x: -5, y: 100 },
      /NEGATIVE|OUT_OF_RANGE/,
      /negative|outside|below 0/i,
    );
  });

  test('outside the image', async () => {
    const { label, f } = await fresh();
    await refused(
      label,
      { frame: f.id, x: f.image.width + 50, y: 100 },
      /OUT_OF_RANGE/,
      /outside|beyond|wider/i,
    );
  });

  test('two targets at once', async () => {
    const { label, f } = await fresh();
    await refused(
      label,
      { frame: f.id, x: 100, y: 100, box: [1, 2, 3, 4] },
      /TWO_TARGETS/,
      /one target|both|exactly one/i,
    );
  });

  test('no target', async () => {
    const { label, f } = await fresh();
    await refused(label, { frame: f.id }, /NO_TARGET/, /x.*y|box|target/i);
  });

  test('unknown frame', async () => {
    const { label } = await fresh();
    await refused(label, { frame: 'f999', x: 100, y: 100 }, /UNKNOWN_FRAME/, /browser_screenshot/);
  });

  test('a frame from before a navigation', async () => {
    const { label, f } = await fresh();
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: label, again: 1 }) });
    const p = imagePx(f, { x: 1102, y: 636 });
    await refused(
      label,
      { frame: f.id, x: p.x, y: p.y },
      /FRAME_OUTDATED/,
      /before a navigation.*new screenshot/i,
    );
  });

  test('values ≤ 1 with units px (a normalized answer passed as pixels)', async () => {
    const { label, f } = await fresh();
    await refused(label, { frame: f.id, x: 0.86, y: 0.8 }, /LOOKS_NORMALIZED/, /normalized/);
  });

  test('a box with x2 < x1', async () => {
    const { label, f } = await fresh();
    await refused(label, { frame: f.id, box: [400, 100, 300, 200] }, /BOX_INVERTED/, /x2|right/i);
  });

  test('pixels without a frame', async () => {
    const { label } = await fresh();
    await refused(label, { x: 100, y: 100, units: 'px' }, /FRAME_REQUIRED/, /frame/);
  });

  test('a point outside the viewport in CSS px', async () => {
    const { label } = await fresh();
    await refused(label, { x: 1500, y: 100, units: 'css' }, /OUTSIDE_VIEWPORT/, /outside the 1280×800/);
  });

  test('non-numbers are rejected by the schema', async () => {
    const { label, f } = await fresh();
    await refused(label, { frame: f.id, x: 'ten', y: 100 }, /BAD_ARGUMENT/, /x: .*number/i);
  });

  test('model_output that the preset cannot parse', async () => {
    const { label, f } = await fresh();
    await refused(
      label,
      { frame: f.id, model: 'gemini', model_output: 'I would click the approve button.' },
      /PARSE/,
      /box_2d|point|parse|found no/i,
    );
  });

  test('unknown mark', async () => {
    const { label } = await fresh();
    const r = await mcp.call('browser_screenshot', { marks: true });
    const id = structured<{ frame: { id: string } }>(r).frame.id;
    await refused(label, { frame: id, mark: 9999 }, /UNKNOWN_MARK/, /marks: true|has no mark/);
  });
});
