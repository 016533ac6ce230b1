import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { frameOf, imagePx, type McpHarness, startStdio, structured, text } from '../helpers/mcp-client.js';

// Every verdict of SPEC S4, each produced by a real page in real Chromium, through a real MCP client.
let srv: FixtureServer;
let mcp: McpHarness;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Report {
  verdict: string;
  message: string;
  dispatched: { x: number; y: number } | null;
  hitNow: { id?: string; context?: string } | null;
  hitAtCapture: { id?: string; context?: string } | null;
  landed?: { id?: string } | null;
  expectedAt?: { css: { x: number; y: number }; image: { x: number; y: number } };
  diagnosis?: { verdict: string; scale: { x: number; y: number }; likelyCauses: string[] };
  mutationsSinceFrame: number | null;
  frameAgeMs: number | null;
}

before(async () => {
  srv = await startFixtureServer();
  mcp = await startStdio(['--device-scale-factor', '2']);
});
after(async () => {
  await mcp?.close();
  await srv?.close();
});

/** Slot i's Delete button centre in the ticket queue (fixtures/server.ts). */
const deleteSlot = (i: number) => ({ x: 1180, y: 148 + 56 * i });

describe('verdicts from real pages', () => {
  test('STALE_TARGET: rows re-sorted since the frame; nothing deleted; a new frame deletes the right row', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/tickets', { resort: 3000, run: 'stale' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, deleteSlot(2));
    await sleep(3300); // the model "thinks"; the rows re-sort meanwhile
    const r = await mcp.call('browser_click', {
      frame: f.id,
      x: p.x,
      y: p.y,
      expect: { text: 'Delete', context: 'TCK-7743' },
    });
    const s = structured<Report>(r);
    assert.equal(r.isError, true);
    assert.equal(s.verdict, 'STALE_TARGET', text(r));
    assert.equal(s.dispatched, null);
    assert.match(s.hitAtCapture?.context ?? '', /TCK-7743/);
    assert.doesNotMatch(s.hitNow?.context ?? '', /TCK-7743/);
    assert.ok((s.mutationsSinceFrame ?? 0) > 0, 'mutations since frame counted');
    assert.match(s.message, /new screenshot/);
    await sleep(200);
    assert.equal(srv.hits({ run: 'stale', type: 'click' }).length, 0, 'no click reached the page');

    const shot = await mcp.call('browser_screenshot', { marks: true });
    const marks = structured<{
      frame: { id: string };
      marks: Array<{ id: number; name: string; context?: string }>;
    }>(shot);
    const m = marks.marks.find((k) => k.name === 'Delete' && /TCK-7743/.test(k.context ?? ''));
    assert.ok(m, 'the TCK-7743 Delete button is marked');
    const ok = await mcp.call('browser_click', {
      frame: marks.frame.id,
      mark: m.id,
      expect: { context: 'TCK-7743' },
    });
    assert.equal(structured<Report>(ok).verdict, 'OK', text(ok));
    const hits = await srv.waitForHits(1, { run: 'stale', type: 'click' });
    assert.equal(hits[0]?.extra?.deleted, 'TCK-7743');
  });

  test('STALE_TARGET: a list that re-renders in place (same button node, same text, another row)', async () => {
    await mcp.call('browser_navigate', {
      url: srv.url('/tickets', { resort: 3000, order: 'rewrite', run: 'rewrite' }),
    });
    const f = await frameOf(mcp);
    const p = imagePx(f, deleteSlot(1));
    await sleep(3300);
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report & { hitNow: { nodeId: number }; hitAtCapture: { nodeId: number } }>(r);
    assert.equal(s.verdict, 'STALE_TARGET', text(r));
    assert.equal(s.hitNow.nodeId, s.hitAtCapture.nodeId, 'the same DOM node is under the point');
    assert.match(s.hitAtCapture.context ?? '', /TCK-7742/);
    assert.match(s.hitNow.context ?? '', /TCK-7747/);
    await sleep(200);
    assert.equal(srv.hits({ run: 'rewrite', type: 'click' }).length, 0);
  });

  test('COVERED: a toast appeared over the point; pointer-events:none decorations are not covers', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/tickets', { toast: 1000, run: 'covered' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, deleteSlot(0));
    await sleep(1300);
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report>(r);
    assert.equal(s.verdict, 'COVERED', text(r));
    assert.equal(s.dispatched, null);
    assert.equal(s.hitAtCapture?.id, 'del-TCK-7741');
    await sleep(200);
    assert.equal(srv.hits({ run: 'covered', type: 'click' }).length, 0);

    await mcp.call('browser_navigate', {
      url: srv.url('/tickets', { toast: 1000, pe: 'none', run: 'deco' }),
    });
    const g = await frameOf(mcp);
    await sleep(1300);
    const q = imagePx(g, deleteSlot(0));
    const ok = await mcp.call('browser_click', { frame: g.id, x: q.x, y: q.y });
    assert.equal(structured<Report>(ok).verdict, 'OK', text(ok));
    assert.equal((await srv.waitForHits(1, { run: 'deco', type: 'click' }))[0]?.extra?.deleted, 'TCK-7741');
  });

  test('COVERED: a modal over the whole viewport', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/covered', { modal: 1000, run: 'modal' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 280, y: 224 });
    await sleep(1300);
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    assert.equal(structured<Report>(r).verdict, 'COVERED', text(r));
    assert.equal(srv.hits({ run: 'modal', type: 'click' }).length, 0);
  });

  test('MISSED_TARGET: the point did not hold what expect describes; the answer says where it was', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/approve', { run: 'missed' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 900, y: 636 }); // 202 px left of Approve's centre
    const r = await mcp.call('browser_click', {
      frame: f.id,
      x: p.x,
      y: p.y,
      expect: { text: 'Approve', role: 'button' },
    });
    const s = structured<Report>(r);
    assert.equal(s.verdict, 'MISSED_TARGET', text(r));
    assert.equal(s.dispatched, null);
    assert.ok(s.expectedAt);
    assert.ok(Math.abs(s.expectedAt.css.x - 1102) < 0.5 && Math.abs(s.expectedAt.css.y - 636) < 0.5);
    const img = imagePx(f, { x: 1102, y: 636 });
    assert.ok(Math.abs(s.expectedAt.image.x - img.x) < 0.5);
    assert.match(s.message, /x \d+, y \d+, frame/);
    await sleep(200);
    assert.equal(srv.hits({ run: 'missed', type: 'click' }).length, 0);
  });

  test('FRAME_MISMATCH: misses that fit one scale name the scale and a likely cause', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/targets', { run: 'mismatch' }) });
    const f = await frameOf(mcp);
    // The client showed the image 1000 px wide and the agent forgot shown_width: every point shrinks.
    const k = 1000 / f.image.width;
    const targets = [
      { css: { x: 640, y: 400 }, text: 'M' },
      { css: { x: 1260, y: 780 }, text: 'F' },
      { css: { x: 1268, y: 400 }, text: 'E' },
    ];
    const verdicts: string[] = [];
    let last: Report | undefined;
    for (const t of targets) {
      const p = imagePx(f, t.css);
      const r = await mcp.call('browser_click', {
        frame: f.id,
        x: p.x * k,
        y: p.y * k,
        expect: { text: t.text, role: 'button' },
      });
      last = structured<Report>(r);
      verdicts.push(last.verdict);
    }
    assert.deepEqual(verdicts, ['MISSED_TARGET', 'MISSED_TARGET', 'FRAME_MISMATCH']);
    assert.equal(last?.diagnosis?.verdict, 'uniform-scale');
    assert.ok(Math.abs((last?.diagnosis?.scale.x ?? 0) - k) < 0.01, JSON.stringify(last?.diagnosis));
    assert.ok(Math.abs((last?.diagnosis?.scale.y ?? 0) - k) < 0.01, JSON.stringify(last?.diagnosis));
    assert.match(last?.message ?? '', /shown_width/);
    assert.equal(srv.hits({ run: 'mismatch', type: 'click' }).length, 0);
  });

  test('LANDED_ELSEWHERE: the target moved away during the click; the release is stopped and reported', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/moving', { run: 'moving' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 400, y: 300 });
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report>(r);
    assert.equal(s.verdict, 'LANDED_ELSEWHERE', text(r));
    assert.equal(s.landed?.id, 'behind');
    assert.ok(s.dispatched);
    await sleep(200);
    // The guard stopped the click before the page's listeners: the page recorded the press only.
    assert.equal(srv.hits({ run: 'moving', type: 'click' }).length, 0);
    assert.ok(srv.hits({ run: 'moving', type: 'pointerdown' }).some((h) => h.id === 'mover'));
  });

  test('UNVERIFIED: input sent but not acknowledged (a handler blocks the page) is never "nothing clicked"', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/blank', { busy: 6500, run: 'busy' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 640, y: 400 });
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report>(r);
    assert.equal(s.verdict, 'UNVERIFIED', text(r));
    assert.ok(s.dispatched, 'the answer says the click was sent');
    assert.doesNotMatch(text(r), /Nothing was clicked/);
    assert.match(s.message, /new screenshot/);
    assert.equal(
      (await srv.waitForHits(1, { run: 'busy', type: 'click', timeoutMs: 10_000 }))[0]?.id,
      'only',
    );
  });

  test('a click inside a same-origin iframe is checked against the iframe element and reported as such', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/iframe', { run: 'iframe' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 220, y: 220 });
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report>(r);
    assert.equal(s.verdict, 'OK', text(r));
    assert.match(s.message, /inside an iframe/);
    const hits = await srv.waitForHits(1, { run: 'iframe', type: 'click' });
    assert.equal(hits[0]?.id, 'inner-button');
  });

  test('OK on a CSP-strict page: no page-world script needed', async () => {
    await mcp.call('browser_navigate', { url: srv.url('/csp', { run: 'csp' }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 280, y: 224 });
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y, expect: { text: 'Save' } });
    assert.equal(structured<Report>(r).verdict, 'OK', text(r));
    assert.equal((await srv.waitForHits(1, { run: 'csp', type: 'click' }))[0]?.id, 'save');
  });

  test('STALE_TARGET on a canvas: rows re-drawn during inference are refused by the pixel guard; a new frame archives the right row', async () => {
    const run = 'canvas-stale';
    await mcp.call('browser_navigate', { url: srv.url('/rw/canvas-table', { resort: 3000, run }) });
    const f = await frameOf(mcp);
    const p = imagePx(f, { x: 1156, y: 144 + 48 * 4 });
    await sleep(3300); // the model "thinks"; the canvas re-draws its rows meanwhile (and its clock ticks)
    const r = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report & { pixels?: { why: string; changedShare: number; textThen?: string } }>(r);
    assert.equal(r.isError, true);
    assert.equal(s.verdict, 'STALE_TARGET', text(r));
    assert.equal(s.dispatched, null);
    assert.equal(s.pixels?.why, '<canvas>');
    assert.ok((s.pixels?.changedShare ?? 0) > 0);
    assert.match(text(r), /band under the point/);
    await sleep(300);
    assert.equal(srv.actions({ run }).length, 0, 'nothing archived');
    const f2 = await frameOf(mcp);
    const p2 = imagePx(f2, { x: 1156, y: 144 + 48 * 4 });
    const ok = await mcp.call('browser_click', { frame: f2.id, x: p2.x, y: p2.y });
    assert.equal(structured<Report>(ok).verdict, 'OK', text(ok));
    const [a] = await srv.waitForActions(1, { run });
    // Reversed: row 4 of the re-sorted table is TCK-7741.
    assert.equal(`${a?.do} ${a?.id}`, 'archive TCK-7741');
  });

  test('a living page through the client: a ticking duration is set aside and named; strict refuses it', async () => {
    const run = 'living-mcp';
    // Cancel of JOB-4103, row 3 of /rw/jobs (fixtures/realweb/README.md): x 1198.6, rows of 52 px from y 80.
    const at = { x: 1198.6, y: 80 + 52 * 2 + 26 };
    await mcp.call('browser_navigate', { url: srv.url('/rw/jobs', { run }) });
    await sleep(300);
    let f = await frameOf(mcp);
    let p = imagePx(f, at);
    await sleep(600); // the durations tick while the model thinks
    const strict = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y, strict: true });
    assert.equal(strict.isError, true);
    assert.equal(structured<Report>(strict).verdict, 'STALE_TARGET', text(strict));
    await sleep(300);
    assert.equal(srv.actions({ run }).length, 0, 'nothing cancelled');
    f = await frameOf(mcp);
    p = imagePx(f, at);
    await sleep(600);
    const ok = await mcp.call('browser_click', { frame: f.id, x: p.x, y: p.y });
    const s = structured<Report & { setAside?: Array<{ why: string; was: string; now: string }> }>(ok);
    assert.equal(s.verdict, 'OK', text(ok));
    assert.ok(
      s.setAside?.some((x) => /Running for/.test(x.was)),
      JSON.stringify(s.setAside),
    );
    assert.match(text(ok), /not part of the record/);
    const [a] = await srv.waitForActions(1, { run });
    assert.equal(`${a?.do} ${a?.id}`, 'cancel JOB-4103');
  });
});
