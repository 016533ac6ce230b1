import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import type { ClickReport } from '../actions/check/verdicts.js';
import { TrueclickSession } from '../actions/session/session.js';
// The naive pipeline is a raw trusted click at the model's numbers as CSS px: what the peers do.
import { dispatchClick } from '../browser/plumbing/input.js';
import { drawLabels, resizeToWidth, sideBySide } from '../image/draw.js';

interface Row {
  scenario: string;
  naive: string;
  trueclick: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function clicksOf(srv: FixtureServer, run: string) {
  await sleep(250);
  return srv.hits({ run, type: 'click' });
}

function landedText(
  hits: Array<{ id: string | null }>,
  want: string,
  p: { x: number; y: number },
  css: { width: number; height: number },
): string {
  if (p.x >= css.width || p.y >= css.height) return `missed: outside the ${css.width}×${css.height} viewport`;
  const hit = hits[0];
  if (!hit?.id) return 'missed: hit the page background';
  return hit.id === want ? `hit #${hit.id}` : `missed: hit #${hit.id}`;
}

/** Case 1: DPR 2, full-resolution capture, the client shows it 1568 px wide; the model answers in those px. */
async function downscaleCase(session: TrueclickSession, srv: FixtureServer, out: string, rows: Row[]) {
  const driver = await session.driver();
  await session.navigate(srv.url('/approve', { run: 'demo-naive' }));
  const shot = await session.screenshot();
  const g = shot.frame.geometry;
  const shown = 1568;
  // The model reads Approve's centre (CSS 1102, 636) in the image it was shown.
  const answer = {
    x: ((1102 * g.image.width) / g.css.width) * (shown / g.image.width),
    y: ((636 * g.image.height) / g.css.height) * (shown / g.image.width),
  };
  await dispatchClick(driver, answer);
  const naiveHits = await clicksOf(srv, 'demo-naive');

  await session.navigate(srv.url('/approve', { run: 'demo-tc' }));
  const shot2 = await session.screenshot();
  const r = await session.click({
    frame: shot2.frame.id,
    x: answer.x,
    y: answer.y,
    shown_width: shown,
    expect: { text: 'Approve' },
  });
  rows.push({
    scenario: `Approve button, DPR 2, ${g.image.width}×${g.image.height} screenshot shown at ${shown} px wide; model answers (${answer.x.toFixed(0)}, ${answer.y.toFixed(0)})`,
    naive: `clicked CSS (${answer.x.toFixed(0)}, ${answer.y.toFixed(0)}): ${landedText(naiveHits, 'approve', answer, g.css)}`,
    trueclick: `${r.verdict}: clicked CSS (${r.dispatched?.x.toFixed(0)}, ${r.dispatched?.y.toFixed(0)}), ${r.landed ? `hit #${r.landed.id}` : 'nothing'}`,
  });

  // The picture, at CSS size: where each pipeline's click lands on the page.
  const png = await resizeToWidth(Buffer.from(shot.base64, 'base64'), g.css.width);
  const mark = (p: { x: number; y: number }, text: string, colour: string) => {
    const x = Math.min(Math.max(p.x, 14), g.css.width - 14);
    const y = Math.min(Math.max(p.y, 14), g.css.height - 14);
    return { box: { x: x - 1, y: y - 1, width: 2, height: 2 }, text, colour, point: true };
  };
  const offEdge = answer.x > g.css.width || answer.y > g.css.height;
  const naiveLabel = `naive (${answer.x.toFixed(0)}, ${answer.y.toFixed(0)})${offEdge ? ' off the viewport' : ''}`;
  const naivePng = await drawLabels(png, [mark(answer, naiveLabel, '#d62728')], { fontPx: 16 });
  const tcPng = await drawLabels(png, [mark(r.dispatched ?? answer, `trueclick ${r.verdict}`, '#2ca02c')], {
    fontPx: 16,
  });
  const pic = await sideBySide([
    { png: naivePng, caption: `naive: model's px of a 1568-wide image used as CSS px → misses Approve` },
    {
      png: tcPng,
      caption: `trueclick: frame ${shot2.frame.id} + shown_width ${shown} → CSS (1102, 636), Approve`,
    },
  ]);
  writeFileSync(out, pic);
}

/** Case 2: the checkbox at DPR 1.65 in a 2327 px wide viewport (150 % OS scaling × 110 % zoom). */
async function checkboxCase(session: TrueclickSession, srv: FixtureServer, rows: Row[]) {
  const driver = await session.driver();
  await session.navigate(srv.url('/checkboxes', { w: 2327, run: 'demo-cb-naive' }));
  const shot = await session.screenshot();
  const g = shot.frame.geometry;
  const answer = { x: (1396.5 * g.image.width) / g.css.width, y: (698.5 * g.image.height) / g.css.height };
  await dispatchClick(driver, answer);
  const naiveHits = await clicksOf(srv, 'demo-cb-naive');
  await session.navigate(srv.url('/checkboxes', { w: 2327, run: 'demo-cb-tc' }));
  const shot2 = await session.screenshot();
  const r = await session.click({
    frame: shot2.frame.id,
    x: answer.x,
    y: answer.y,
    expect: { role: 'checkbox' },
  });
  rows.push({
    scenario: `13×13 checkbox, DPR 1.65, 2327×1156 viewport, full-resolution ${g.image.width}×${g.image.height} screenshot; model answers (${answer.x.toFixed(0)}, ${answer.y.toFixed(0)})`,
    naive: `clicked CSS (${answer.x.toFixed(0)}, ${answer.y.toFixed(0)}): ${landedText(naiveHits, 'cb1', answer, g.css)}`,
    trueclick: `${r.verdict}: ${r.landed ? `checked #${r.landed.id}` : 'nothing'}`,
  });
}

/** Case 3: the ticket queue re-sorts 310 ms after the screenshot while the model thinks for 900 ms. */
async function staleCase(session: TrueclickSession, srv: FixtureServer, rows: Row[]) {
  const driver = await session.driver();
  const slot2 = { x: 1180, y: 148 + 56 * 2 };
  const start = () => driver.page.evaluate('window.__startSchedule()');

  await session.navigate(srv.url('/tickets', { resort: 310, start: 'manual', run: 'demo-stale-naive' }));
  const naiveShot = await session.screenshot();
  const k = naiveShot.frame.geometry.image.width / naiveShot.frame.geometry.css.width;
  await start();
  await sleep(900);
  await dispatchClick(driver, slot2);
  const naiveHits = await clicksOf(srv, 'demo-stale-naive');
  const deleted = naiveHits.find((h) => h.extra?.deleted)?.extra?.deleted;

  await session.navigate(srv.url('/tickets', { resort: 310, start: 'manual', run: 'demo-stale-tc' }));
  const shot = await session.screenshot();
  await start();
  await sleep(900);
  const first: ClickReport = await session.click({
    frame: shot.frame.id,
    x: slot2.x * k,
    y: slot2.y * k,
    expect: { text: 'Delete', context: 'TCK-7743' },
  });
  let outcome = `${first.verdict}, nothing deleted`;
  if (first.verdict !== 'OK') {
    const again = await session.screenshot({ marks: true });
    const mark = again.marks?.find((m) => m.hit.name === 'Delete' && m.hit.context?.includes('TCK-7743'));
    if (mark) {
      const second = await session.click({
        frame: again.frame.id,
        mark: mark.id,
        expect: { context: 'TCK-7743' },
      });
      const hits = await clicksOf(srv, 'demo-stale-tc');
      outcome += `; new screenshot ${again.frame.id}, mark [${mark.id}] → ${second.verdict}, deleted ${String(hits.find((h) => h.extra?.deleted)?.extra?.deleted ?? 'nothing')}`;
    }
  }
  rows.push({
    scenario:
      'Ticket queue: delete TCK-7743 (row 3); rows re-sort 310 ms after the screenshot, the model takes 900 ms',
    naive: `deleted ${String(deleted ?? 'nothing')}${deleted && deleted !== 'TCK-7743' ? ' (the wrong ticket)' : ''}`,
    trueclick: outcome,
  });
}

function printTable(rows: Row[]): void {
  const wrap = (s: string, w: number) => {
    const words = s.split(' ');
    const lines: string[] = [];
    let line = '';
    for (const word of words) {
      if ((line + word).length > w) {
        lines.push(line.trimEnd());
        line = '';
      }
      line += `${word} `;
    }
    lines.push(line.trimEnd());
    return lines;
  };
  const widths = [44, 34, 44];
  const sep = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const print = (cells: string[]) => {
    const wrapped = cells.map((c, i) => wrap(c, widths[i] ?? 30));
    const h = Math.max(...wrapped.map((w) => w.length));
    for (let l = 0; l < h; l++)
      console.log(`| ${wrapped.map((w, i) => (w[l] ?? '').padEnd(widths[i] ?? 30)).join(' | ')} |`);
  };
  console.log(sep);
  print(['case', 'naive (image px used as CSS px, as peers do)', 'trueclick']);
  console.log(sep);
  for (const r of rows) {
    print([r.scenario, r.naive, r.trueclick]);
    console.log(sep);
  }
}

/** `trueclick demo`: the field's three failures, the naive way and the trueclick way, on local pages. */
export async function demo(o: { out?: string; executablePath?: string; json?: boolean }): Promise<number> {
  const srv = await startFixtureServer();
  const rows: Row[] = [];
  const outDir = resolve(o.out ?? 'out');
  mkdirSync(outDir, { recursive: true });
  const picture = resolve(outDir, 'trueclick-demo.png');
  const base = o.executablePath ? { executablePath: o.executablePath } : {};
  if (!o.json) console.log('trueclick demo: headless Chromium on local fixture pages (127.0.0.1)…\n');
  const s2 = new TrueclickSession({ ...base, deviceScaleFactor: 2, maxImageEdge: 0 });
  const s165 = new TrueclickSession({
    ...base,
    deviceScaleFactor: 1.65,
    viewport: { width: 2327, height: 1156 },
    maxImageEdge: 0,
  });
  try {
    await downscaleCase(s2, srv, picture, rows);
    await checkboxCase(s165, srv, rows);
    await staleCase(s2, srv, rows);
  } finally {
    await Promise.all([s2.close(), s165.close()]);
    await srv.close();
  }
  if (o.json) {
    console.log(JSON.stringify({ rows, picture }, null, 2));
  } else {
    printTable(rows);
    console.log(`\nAnnotated screenshot (naive vs trueclick): ${picture}`);
  }
  if (!o.json) console.log('Run the tests with: npm test. Serve MCP with: npx trueclick serve (see README).');
  const ok = rows.every(
    (r) => /^OK/.test(r.trueclick) || /STALE_TARGET.*→ OK, deleted TCK-7743/.test(r.trueclick),
  );
  return ok ? 0 : 1;
}
