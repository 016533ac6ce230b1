// The picture in ARCHITECTURE.md, drawn from the code by `npm run docs`: the layers of SPEC S1 with the folders
// and file counts found in src/, and one click's path through its stages with the file that holds each stage
// (found by searching src/ for the function). Nothing here is typed by hand but the stage names and order.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const LAYERS = ['cli', 'mcp', 'actions', 'grounding', 'native', 'browser', 'trace', 'image', 'geometry'];
/** One click (browser_click), stage by stage: what happens, and the function that does it. */
const STAGES = [
  ['resolve the point in its frame', 'resolveTarget'],
  ['what the point held at capture', 'atCapture'],
  ['where it is now (scroll)', 'place'],
  ['first look, before the pointer moves', 'lookFirst'],
  ['judged against the capture', 'judgeSeen'],
  ['pointer moves, guard armed', 'pointAndArm'],
  ['the page’s answer to the pointer', 'judgeHover'],
  ['covered? expected? can it act?', 'finalChecks'],
  ['through pointer-events: none', 'blockedThrough'],
  ['pixels, where the DOM cannot vouch', 'comparePixels'],
  ['trusted press and release', 'dispatchClick'],
  ['where it landed, what navigated', 'afterDispatch'],
  ['the effect, named', 'pressEffect'],
];

const esc = (s) => s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]);

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The file of src/ that defines `name` (a function), as a path under src/. */
function fileOf(root, name) {
  const re = new RegExp(`(^|\\n)(export )?(async )?function ${name}\\b`);
  const hit = tsFiles(join(root, 'src')).find((f) => re.test(readFileSync(f, 'utf8')));
  if (!hit) throw new Error(`architecture: no function ${name} in src/`);
  return relative(join(root, 'src'), hit);
}

/** The SVG: layers on the left (folders with their file counts), the click's stages on the right. */
export function architectureSvg(root) {
  const src = join(root, 'src');
  const rows = LAYERS.map((layer) => {
    const dir = join(src, layer);
    const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
    const own = readdirSync(dir).filter((f) => f.endsWith('.ts') && statSync(join(dir, f)).isFile()).length;
    const parts = subs.map((s) => `${s.name}/ ${tsFiles(join(dir, s.name)).length}`);
    return { layer, text: [own ? `${own} files` : '', ...parts].filter(Boolean).join(' · ') };
  });
  const W = 1400;
  const rowH = 58;
  const H = Math.max(rows.length * rowH, STAGES.length * 44) + 110;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="30" y="40" font-size="22" font-weight="bold">Layers (SPEC S1): a layer imports only those below it</text>`,
    `<text x="720" y="40" font-size="22" font-weight="bold">One browser_click, stage by stage</text>`,
  ];
  rows.forEach((r, i) => {
    const y = 70 + i * rowH;
    out.push(
      `<rect x="30" y="${y}" width="640" height="${rowH - 10}" rx="6" fill="#f0f6fc" stroke="#2271b1"/>`,
    );
    out.push(`<text x="44" y="${y + 22}" font-size="17" font-weight="bold">src/${r.layer}/</text>`);
    out.push(`<text x="44" y="${y + 41}" font-size="13" fill="#3c434a">${esc(r.text)}</text>`);
  });
  STAGES.forEach(([what, fn], i) => {
    const y = 70 + i * 44;
    out.push(`<circle cx="736" cy="${y + 14}" r="12" fill="#0b7a43"/>`);
    out.push(`<text x="736" y="${y + 19}" font-size="13" fill="#fff" text-anchor="middle">${i + 1}</text>`);
    out.push(`<text x="758" y="${y + 12}" font-size="15">${esc(what)}</text>`);
    out.push(
      `<text x="758" y="${y + 30}" font-size="12" fill="#50575e">${esc(`${fn}() in src/${fileOf(root, fn)}`)}</text>`,
    );
  });
  out.push('</svg>');
  return out.join('\n');
}
