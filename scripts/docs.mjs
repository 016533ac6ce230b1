// `npm run docs`: regenerates every picture in docs/pictures and the generated docs/presets.md. Each picture is
// a real screenshot of a corpus page (Bootstrap 5 /rw/overlays, React /rw/list) taken through trueclick at
// devicePixelRatio 2, with points computed by trueclick's geometry core (the same four numbers read under the
// right and a wrong convention) and drawn by trueclick's own drawing code (src/image/draw.ts). Nothing is
// drawn by hand. DOCS_OUT=dir writes elsewhere (the tests do).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { startFixtureServer } from '../dist/fixtures/server.js';
import { ExtensionRelay } from '../dist/src/browser/extension/relay.js';
import { findChromium } from '../dist/src/browser/plumbing/chromium-path.js';
import { CHROMIUM_ARGS } from '../dist/src/browser/plumbing/launch.js';
import { writeReport } from '../dist/src/cli/report.js';
import {
  PRESET_NAMES,
  presetFor,
  resolveRequest,
  toConvention,
  toConventionBox,
} from '../dist/src/geometry/index.js';
import { drawLabels, resizeToWidth } from '../dist/src/image/draw.js';
import { TrueclickSession } from '../dist/src/index.js';
import { pageAt, startAttachedBrowser } from '../dist/test/helpers/attached.js';
import { imagePx, startStdio, structured } from '../dist/test/helpers/mcp-client.js';
import { startUserBrowser } from '../dist/test/helpers/user-browser.js';
import { architectureSvg } from './architecture.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = process.env.DOCS_OUT ?? join(ROOT, 'docs');
const PICS = join(OUT, 'pictures');
mkdirSync(PICS, { recursive: true });

const GOOD = '#1f9d55';
const BAD = '#d0312d';
/** Pictures are stored this wide: the frame image (1568 px at DPR 2) would make the repository heavy. */
const WIDTH = 1000;
const round = (v) => Math.round(v * 1000) / 1000;
const nums = (a) =>
  a.map((v) => (Number.isInteger(round(v)) ? round(v) : round(v).toFixed(v < 2 ? 3 : 1))).join(', ');

/** A CSS point of the frame as a small box in image px (drawLabels draws a cross-hair at its centre). */
function pointAt(frame, css, text, colour) {
  const k = frame.geometry.image.width / frame.geometry.css.width;
  const x = Math.min(Math.max(css.x * k, 8), frame.geometry.image.width - 8);
  const y = Math.min(Math.max(css.y * k, 8), frame.geometry.image.height - 8);
  return { box: { x: x - 1, y: y - 1, width: 2, height: 2 }, text, colour, point: true };
}
function boxAt(frame, b, text, colour) {
  const k = frame.geometry.image.width / frame.geometry.css.width;
  return {
    box: { x: b.left * k, y: b.top * k, width: (b.right - b.left) * k, height: (b.bottom - b.top) * k },
    text,
    colour,
  };
}
/** Where numbers land when read with `convention` (CSS px), or null when that is outside the viewport. */
function land(frame, fields) {
  try {
    return resolveRequest(fields, frame.geometry).css;
  } catch {
    return null;
  }
}
const inView = (frame, p) =>
  p && p.x >= 0 && p.y >= 0 && p.x < frame.geometry.css.width && p.y < frame.geometry.css.height;

async function picture(name, shot, labels) {
  const png = await drawLabels(Buffer.from(shot.base64, 'base64'), labels, { fontPx: 18 });
  writeFileSync(join(PICS, `${name}.png`), await resizeToWidth(png, WIDTH));
  return `pictures/${name}.png`;
}

/** A real MCP session with --trace-dir on /rw/list, its report opened in Chromium and photographed. */
async function reportPicture(srv) {
  const traceDir = mkdtempSync(join(os.tmpdir(), 'trueclick-docs-trace-'));
  const chrome = await startAttachedBrowser();
  const mcp = await startStdio([
    '--cdp-endpoint',
    chrome.endpoint,
    '--device-scale-factor',
    '2',
    '--trace-dir',
    traceDir,
  ]);
  try {
    const open = async (run) => {
      const url = srv.url('/rw/list', { run });
      await mcp.call('browser_navigate', { url });
      const page = await pageAt(chrome, url);
      await page.waitForFunction(() => window.rw?.ready === true);
      const f = structured(await mcp.call('browser_screenshot')).frame;
      return { page, f };
    };
    const centre = async (page, id) => {
      const b = await page.locator(`.ticket-row:has-text("${id}") .title`).boundingBox();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    };
    let { page, f } = await open('docs-report-1');
    await mcp.call('browser_click', { frame: f.id, ...imagePx(f, await centre(page, 'TCK-7744')) });
    ({ page, f } = await open('docs-report-2'));
    const at = await centre(page, 'TCK-7741');
    await page.evaluate(() => window.rw.resort());
    await mcp.call('browser_click', { frame: f.id, ...imagePx(f, at) });
  } finally {
    await mcp.close();
    await chrome.close();
  }
  const { file } = writeReport(traceDir);
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    await page.goto(pathToFileURL(file).href);
    await page.locator('#refusals').check();
    const png = await page.screenshot();
    writeFileSync(join(PICS, 'report.png'), await resizeToWidth(png, WIDTH));
  } finally {
    await browser.close();
    rmSync(traceDir, { recursive: true, force: true });
  }
  return 'pictures/report.png';
}

/**
 * A real MCP session with --approve destructive and a client without elicitation on /rw/list: the agent's
 * click on Delete is answered NEEDS_APPROVAL with the link, and the approval page is photographed in a
 * Chromium of the person's own, after the rows re-sorted (then and now differ).
 */
async function approvalPicture(srv) {
  const chrome = await startAttachedBrowser();
  const mcp = await startStdio(
    ['--cdp-endpoint', chrome.endpoint, '--device-scale-factor', '2', '--approve', 'destructive'],
    undefined,
    {},
  );
  const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
  try {
    const url = srv.url('/rw/list', { run: 'docs-approval' });
    await mcp.call('browser_navigate', { url });
    const page = await pageAt(chrome, url);
    await page.waitForFunction(() => window.rw?.ready === true);
    const f = structured(await mcp.call('browser_screenshot')).frame;
    const b = await page.locator('.ticket-row:has-text("TCK-7741") button.delete').boundingBox();
    const asked = await mcp.call('browser_click', {
      frame: f.id,
      ...imagePx(f, { x: b.x + b.width / 2, y: b.y + b.height / 2 }),
    });
    const link = structured(asked).approval.url;
    await page.evaluate(() => window.rw.resort());
    const person = await browser.newPage({ viewport: { width: 1600, height: 760 } });
    await person.goto(link);
    await person.waitForFunction(() =>
      ['then', 'now'].every((id) => document.getElementById(id)?.naturalWidth > 0),
    );
    const png = await person.screenshot({ fullPage: true });
    writeFileSync(join(PICS, 'approval.png'), await resizeToWidth(png, WIDTH));
  } finally {
    await browser.close();
    await mcp.close();
    await chrome.close();
  }
  return 'pictures/approval.png';
}

async function boxOf(session, selector) {
  const page = (await session.driver()).page;
  return page.evaluate((s) => {
    const r = document.querySelector(s).getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }, selector);
}

const srv = await startFixtureServer();
const session = new TrueclickSession({ deviceScaleFactor: 2 });
const made = [];
try {
  await session.navigate(srv.url('/rw/overlays', { run: 'docs' }));
  const shot = await session.screenshot();
  const f = shot.frame;
  const box = await boxOf(session, '#tickets tr:nth-child(4) .archive');
  const c = { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
  const conv = (over) => ({ ...presetFor('claude').convention, resize: 'none', ...over });

  // 1. Units: the same point in per-mille, read as pixels of the image.
  const pm = toConvention(c, conv({ units: 'permille' }), f.geometry);
  const asPx = land(f, { x: pm[0], y: pm[1], units: 'px' });
  made.push(
    await picture('units', shot, [
      pointAt(f, c, `per-mille (${nums(pm)}) = the Archive link`, GOOD),
      pointAt(f, asPx, `(${nums(pm)}) read as image px`, BAD),
    ]),
  );

  // 2. Box format: [x, y, w, h] read as [x1, y1, x2, y2].
  const xywh = toConventionBox(box, conv({ units: 'px', box_format: 'xywh' }), f.geometry);
  const k = f.geometry.image.width / f.geometry.css.width;
  const wrong = {
    left: Math.min(xywh[0], xywh[2]) / k,
    top: Math.min(xywh[1], xywh[3]) / k,
    right: Math.max(xywh[0], xywh[2]) / k,
    bottom: Math.max(xywh[1], xywh[3]) / k,
  };
  made.push(
    await picture('box-format', shot, [
      boxAt(f, box, `xywh [${nums(xywh)}]`, GOOD),
      boxAt(f, wrong, 'the same four numbers read as xyxy', BAD),
      pointAt(f, { x: (wrong.left + wrong.right) / 2, y: (wrong.top + wrong.bottom) / 2 }, 'its centre', BAD),
    ]),
  );

  // 3. Axis order: Gemini writes [y, x] in per-mille; read as [x, y].
  const yx = toConvention(c, conv({ units: 'permille', axis_order: 'yx' }), f.geometry);
  const swapped = land(f, { x: yx[0], y: yx[1], units: 'permille' });
  made.push(
    await picture('axis-order', shot, [
      pointAt(f, c, `Gemini [y, x] = [${nums(yx)}]`, GOOD),
      pointAt(f, swapped, `[${nums(yx)}] read as [x, y]`, BAD),
    ]),
  );

  // 4. Origin: a bottom-left origin (y up) read as top-left.
  const up = toConvention(c, conv({ units: 'px', origin: 'bottom-left' }), f.geometry);
  const flipped = land(f, { x: up[0], y: up[1], units: 'px' });
  made.push(
    await picture('origin', shot, [
      pointAt(f, c, `origin bottom-left: (${nums(up)})`, GOOD),
      pointAt(f, flipped, `(${nums(up)}) with the origin top-left`, BAD),
    ]),
  );

  // 6. Device vs CSS px: the full-resolution image at DPR 2, its pixels used as CSS px (what tools that click
  // at "x, y" do): the title cell of row 2 becomes a point twice as far from the corner.
  const title = await boxOf(session, '#tickets tr:nth-child(2) td:nth-child(2)');
  const tc = { x: title.left + 40, y: (title.top + title.bottom) / 2 };
  const device = [tc.x * 2, tc.y * 2];
  const naive = { x: device[0], y: device[1] };
  made.push(
    await picture('device-css', shot, [
      pointAt(f, tc, `device px (${nums(device)}) = CSS (${nums([tc.x, tc.y])})`, GOOD),
      pointAt(f, naive, `(${nums(device)}) used as CSS px${inView(f, naive) ? '' : ' (off-screen)'}`, BAD),
    ]),
  );

  // 5. Which rectangle: page coordinates (from the top of the document) read as viewport coordinates.
  await session.navigate(srv.url('/rw/list', { run: 'docs' }));
  const page = (await session.driver()).page;
  await page.waitForFunction(() => window.rw?.ready === true);
  await page.evaluate(() => window.scrollTo(0, 240));
  const scrolled = await session.screenshot();
  const sf = scrolled.frame;
  const row = await boxOf(session, '.ticket-row:nth-child(9) .archive');
  const rc = { x: (row.left + row.right) / 2, y: (row.top + row.bottom) / 2 };
  const pagePt = [rc.x, rc.y + 240];
  made.push(
    await picture('rectangle', scrolled, [
      pointAt(sf, rc, `page (${nums(pagePt)}) = viewport (${nums([rc.x, rc.y])}), scrolled 240`, GOOD),
      pointAt(sf, { x: pagePt[0], y: pagePt[1] }, `(${nums(pagePt)}) read as viewport CSS px`, BAD),
    ]),
  );
  // 7. The extension's connect page, as a person sees it after opening the link trueclick gives.
  const relay = await ExtensionRelay.start();
  const user = await startUserBrowser();
  try {
    const blank = user.context.pages();
    for (const name of ['list', 'components', 'overlays']) {
      const tab = await user.context.newPage();
      await tab.goto(srv.url(`/rw/${name}`, { run: 'docs' }));
    }
    for (const tab of blank) await tab.close();
    const connect = await user.context.newPage();
    await connect.goto(relay.connectUrl);
    await connect.waitForURL(/^chrome-extension:/);
    await connect.locator('li').nth(2).waitFor();
    const png = await connect.screenshot();
    writeFileSync(join(PICS, 'connect.png'), await resizeToWidth(png, WIDTH));
    made.push('pictures/connect.png');
  } finally {
    await user.close();
    await relay.close();
  }

  // 8. The report of a traced session on the corpus: a click that hit, and one refused after a re-sort.
  made.push(await reportPicture(srv));
  made.push(await approvalPicture(srv));

  // 9. ARCHITECTURE.md's picture: the layers and one click's stages, read from src/.
  const svg = Buffer.from(architectureSvg(ROOT));
  writeFileSync(
    join(PICS, 'architecture.png'),
    await resizeToWidth(await sharp(svg).png().toBuffer(), WIDTH),
  );
  made.push('pictures/architecture.png');
} finally {
  await session.close();
  await srv.close();
}

// The presets table, from the presets themselves, with where each convention is documented.
const SOURCES = {
  claude: 'platform.claude.com/docs/en/build-with-claude/vision',
  'anthropic-quickstart':
    'anthropics/anthropic-quickstarts: computer-use-demo/computer_use_demo/tools/computer.py',
  'openai-cua': 'developers.openai.com/docs/guides/tools-computer-use',
  gemini: 'ai.google.dev/gemini-api/docs/image-understanding',
  'qwen2-vl': 'OS-Copilot/OS-Atlas: README.md; QwenLM/Qwen2-VL: qwen-vl-utils vision_process.py',
  'qwen2.5-vl': 'QwenLM/Qwen2-VL: qwen-vl-utils vision_process.py (smart_resize)',
  'qwen3-vl': 'QwenLM/Qwen3-VL issues #1741, #1623, #1485',
  'ui-tars': 'bytedance/UI-TARS: codes/ui_tars/action_parser.py',
  'ui-tars-1.5': 'bytedance/UI-TARS: README_coordinates.md, action_parser.py',
  molmo: 'huggingface.co/allenai/Molmo-7B-O-0924/discussions/1',
  'florence-2': 'huggingface/transformers: models/florence2/processing_florence2.py',
  seeclick: 'njucckevin/SeeClick: readme.md',
  showui: 'huggingface.co/showlab/ShowUI-2B/discussions/5',
  'os-atlas': 'OS-Copilot/OS-Atlas: README.md',
};
const rows = PRESET_NAMES.map((n) => {
  const p = presetFor(n);
  const v = p.convention;
  return `| \`${n}\` | ${v.units} | ${v.box_format} | ${v.axis_order} | ${v.origin} | ${v.resize} | ${p.summary.replace(/\|/g, '\\|')} | ${SOURCES[n] ?? ''} |`;
});
writeFileSync(
  join(OUT, 'presets.md'),
  [
    '# Model presets',
    '',
    '<!-- Generated by `npm run docs` from src/geometry/presets.ts; edit those, not this file. -->',
    '',
    'Pass `model: "<preset>"` with the model\'s raw output (`model_output`) or its numbers (`x`, `y`, `box`), and',
    "trueclick reads them in that family's convention. Sources: the family's own docs or code, as collected in",
    'research/conventions.md.',
    '',
    '| preset | units | box | axis order | origin | provider resize | the numbers are | source |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n'),
);
console.log(`docs: wrote ${made.length} pictures (${made.join(', ')}) and presets.md in ${OUT}`);
