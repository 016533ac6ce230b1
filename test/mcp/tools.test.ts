import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { imageSize } from '../../src/geometry/index.js';
import { CAP_COSTS } from '../../src/mcp/cap-costs.js';
import { ALL_CAPS } from '../../src/mcp/caps.js';
import { inputDocs } from '../../src/mcp/field-docs.js';
import { answerFields, enabledTools, listTools } from '../../src/mcp/server.js';
import { END, START, toolDocs, toolReference } from '../../src/mcp/tool-table.js';
import { frameOf, imagePx, type McpHarness, startStdio, structured, text } from '../helpers/mcp-client.js';

// One server (one browser) at devicePixelRatio 2 for every tool.
let srv: FixtureServer;
let mcp: McpHarness;

before(async () => {
  srv = await startFixtureServer();
  mcp = await startStdio(['--device-scale-factor', '2']);
});
after(async () => {
  await mcp?.close();
  await srv?.close();
});

describe('tools over stdio', () => {
  test('with every group: the SPEC S4 tools, with schemas that name their units', async () => {
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, [
      'browser_act',
      'browser_click',
      'browser_drag',
      'browser_file_upload',
      'browser_handle_dialog',
      'browser_hover',
      'browser_navigate',
      'browser_point',
      'browser_press_key',
      'browser_screenshot',
      'browser_scroll',
      'browser_select_option',
      'browser_tabs',
      'browser_type',
      'browser_wait_for',
      'browser_zoom',
    ]);
    for (const t of tools) assert.ok(t.outputSchema, `${t.name} declares an outputSchema`);
    const click = tools.find((t) => t.name === 'browser_click');
    assert.match(click?.description ?? '', /\{frame, x, y\} \(px of that screenshot\)/);
    const props = click?.inputSchema.properties as Record<string, { description?: string }>;
    for (const k of ['box', 'units', 'frame', 'shown_width', 'model', 'model_output', 'expect', 'mark'])
      assert.ok(props[k]?.description, `browser_click.${k} has a description`);
    assert.match(props.units?.description ?? '', /CSS px/);
    assert.match(props.shown_width?.description ?? '', /px/);
  });

  test('the README’s tool reference is the tool list as served (npm run readme regenerates it)', async () => {
    const { tools } = await mcp.client.listTools();
    const readme = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
    const start = readme.indexOf(START);
    const end = readme.indexOf(END);
    assert.ok(start >= 0 && end > start, 'README.md has the generated block');
    const click = enabledTools(ALL_CAPS).find((t) => t.name === 'browser_click');
    assert.equal(
      readme.slice(start, end + END.length),
      toolDocs(
        tools,
        (n) => enabledTools(ALL_CAPS).find((t) => t.name === n)?.cap ?? 'core',
        CAP_COSTS,
        inputDocs(click?.inputSchema ?? {}),
      ),
      'README.md is stale: run npm run readme',
    );
  });

  test('docs/tools.md is the tool list’s full reference (npm run readme regenerates it)', () => {
    const all = listTools(ALL_CAPS);
    const reference = toolReference(
      enabledTools(ALL_CAPS).map((t) => ({
        tool: all.find((x) => x.name === t.name) as (typeof all)[number],
        cap: t.cap ?? 'core',
        answer: answerFields(t),
        docs: inputDocs(t.inputSchema),
      })),
      readFileSync(fileURLToPath(new URL('../../../docs/tools-preamble.md', import.meta.url)), 'utf8'),
    );
    const kept = readFileSync(fileURLToPath(new URL('../../../docs/tools.md', import.meta.url)), 'utf8');
    assert.equal(kept, `${reference}\n`, 'docs/tools.md is stale: run npm run readme');
  });

  test('browser_screenshot returns the image, a note and structuredContent.frame as SPEC S4 lists', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'shot' }) });
    const r = await mcp.call('browser_screenshot');
    assert.ok(!r.isError, text(r));
    const frame = structured<{ frame: Record<string, unknown> }>(r).frame;
    for (const k of ['id', 'image', 'css', 'scroll', 'devicePixelRatio', 'cssPerImagePx', 'capturedAt']) {
      assert.ok(k in frame, `frame.${k}`);
    }
    const img = r.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
    assert.equal(img.mimeType, 'image/png');
    const size = imageSize(Buffer.from(img.data, 'base64'));
    assert.deepEqual(
      frame.image,
      { width: size.width, height: size.height },
      'frame.image is the size of the sent image',
    );
    assert.deepEqual(frame.css, { width: 1280, height: 800 });
    assert.equal(frame.devicePixelRatio, 2);
    // 2560×1600 device px downscaled to fit 1568 px and 1.15 MP
    assert.ok(size.width <= 1568 && size.width * size.height <= 1_150_000, `${size.width}×${size.height}`);
    assert.match(text(r), new RegExp(`Frame ${frame.id as string}`));
    assert.match(text(r), /pixels of this image/);
  });

  test('browser_click by frame image px hits #approve, and the page saw the click at CSS (1102, 636)', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'click' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 1102, y: 636 });
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    assert.ok(!r.isError, text(r));
    const s = structured<{ verdict: string; landed: { id: string }; dispatched: { x: number; y: number } }>(
      r,
    );
    assert.equal(s.verdict, 'OK');
    assert.equal(s.landed.id, 'approve');
    assert.ok(Math.abs(s.dispatched.x - 1102) < 0.01 && Math.abs(s.dispatched.y - 636) < 0.01);
    const hits = await srv.waitForHits(1, { run: 'click', type: 'click' });
    assert.equal(hits[0]?.id, 'approve');
    assert.ok(Math.abs((hits[0]?.x ?? 0) - 1102) <= 1 && Math.abs((hits[0]?.y ?? 0) - 636) <= 1);
  });

  test('a point on the label span of an icon button reports the button, by frame and by mark', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'icon' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 940, y: 636 });
    const r = await mcp.call('browser_click', {
      frame: f.id,
      x: p.x,
      y: p.y,
      expect: { role: 'button', text: 'Export' },
    });
    const s = structured<{
      verdict: string;
      landed: { id: string; role: string; name: string; tag: string };
    }>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.deepEqual([s.landed.tag, s.landed.id, s.landed.role], ['button', 'export', 'button']);
    assert.match(s.landed.name, /Export CSV/);
    const shot = await mcp.call('browser_screenshot', { marks: true });
    const m = structured<{ frame: { id: string }; marks: Array<{ id: number; name: string }> }>(shot);
    const mark = m.marks.find((k) => /Export CSV/.test(k.name));
    assert.ok(mark, 'the icon button is marked');
    const c = await mcp.call('browser_click', { frame: m.frame.id, mark: mark.id });
    assert.equal(structured<{ verdict: string }>(c).verdict, 'OK', text(c));
    const hits = await srv.waitForHits(2, { run: 'icon', type: 'click' });
    assert.deepEqual(
      hits.map((h) => h.id),
      ['export', 'export'],
    );
  });

  test('browser_point resolves and reports without clicking', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'point' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 1102, y: 636 });
    const r = await mcp.call('browser_point', { frame: f.id, x: p.x, y: p.y });
    const s = structured<{
      point: { x: number; y: number };
      imagePoint: { x: number };
      hitNow: { id: string };
      hitAtCapture: { id: string };
    }>(r);
    assert.ok(Math.abs(s.point.x - 1102) < 0.01);
    assert.ok(Math.abs(s.imagePoint.x - p.x) < 0.01);
    assert.equal(s.hitNow.id, 'approve');
    assert.equal(s.hitAtCapture.id, 'approve');
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(srv.hits({ run: 'point' }).length, 0, 'nothing was clicked');
  });

  test('a model_output in Gemini box_2d form clicks the right element', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'gemini' }) });
    const f = await frameOf(mcp);
    // #approve box (1042,616)-(1162,656) in a 1280×800 viewport, as Gemini writes it: [ymin,xmin,ymax,xmax] per-mille.
    const pm = (v: number, of: number) => Math.round((v / of) * 1000);
    const box = [pm(616, 800), pm(1042, 1280), pm(656, 800), pm(1162, 1280)];
    const r = await mcp.call('browser_click', {
      frame: f.id,
      model: 'gemini',
      model_output: `{"box_2d": [${box.join(', ')}]}`,
    });
    assert.equal(structured<{ verdict: string }>(r).verdict, 'OK', text(r));
    assert.equal((await srv.waitForHits(1, { run: 'gemini', type: 'click' }))[0]?.id, 'approve');
  });

  test('marks: numbered labels listed in the note, and a mark click resolves by identity', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'marks' }) });
    const r = await mcp.call('browser_screenshot', { marks: true });
    const s = structured<{ frame: { id: string }; marks: Array<{ id: number; name: string }> }>(r);
    const approve = s.marks.find((m) => m.name === 'Approve');
    assert.ok(approve, `marks: ${JSON.stringify(s.marks.slice(0, 5))}`);
    assert.match(text(r), new RegExp(`\\[${approve.id}\\] button "Approve"`));
    const c = await mcp.call('browser_click', { frame: s.frame.id, mark: approve.id });
    assert.equal(structured<{ verdict: string }>(c).verdict, 'OK', text(c));
    assert.equal((await srv.waitForHits(1, { run: 'marks', type: 'click' }))[0]?.id, 'approve');
  });

  test('browser_type clicks a field by frame, types and submits; browser_press_key sends a key', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/type', { run: 'type' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 200, y: 116 });
    const r = await mcp.call('browser_type', {
      frame: f.id,
      x: p.x,
      y: p.y,
      text: 'Ada Lovelace',
      submit: true,
    });
    assert.ok(!r.isError, text(r));
    const submit = await srv.waitForHits(1, { run: 'type', type: 'submit' });
    assert.equal(submit[0]?.extra?.value, 'Ada Lovelace');
    // Typing produced keydowns of its own: wait for one more than those.
    const typed = srv.hits({ run: 'type', type: 'keydown' }).length;
    const k = await mcp.call('browser_press_key', { key: 'Escape' });
    assert.ok(!k.isError, text(k));
    const keys = await srv.waitForHits(typed + 1, { run: 'type', type: 'keydown' });
    assert.ok(keys.some((h) => h.extra?.key === 'Escape'));
  });

  test('browser_scroll scrolls, and a point read off the frame before the scroll follows the document', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/scrollbar', { run: 'scroll' }) });
    const f = await frameOf(mcp);
    const s = await mcp.call('browser_scroll', { dx: 0, dy: 100 });
    assert.deepEqual(structured<{ scroll: { y: number } }>(s).scroll.y, 100, text(s));
    // #far-right was at CSS (1236, 716) in the frame; after scrolling 100 px it is at (1236, 616).
    const p = imagePx(f, { x: 1236, y: 716 });
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const c = structured<{ verdict: string; dispatched: { y: number }; scrollSinceFrame: { y: number } }>(r);
    assert.equal(c.verdict, 'OK', text(r));
    assert.equal(c.scrollSinceFrame.y, 100);
    assert.ok(Math.abs(c.dispatched.y - 616) < 0.01);
    assert.equal((await srv.waitForHits(1, { run: 'scroll', type: 'click' }))[0]?.id, 'far-right');
  });
});
