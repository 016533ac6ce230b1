import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Diagnosis, diagnose } from '../geometry/diagnose.js';
import { sessionsIn, type TraceRecord } from '../trace/trace.js';

/**
 * `trueclick report DIR`: one HTML file beside a session's trace (its frame images load from frames/ next to
 * it; nothing from the network) that replays the session step by step: the frame the model saw, the point it
 * gave and where the click landed, the element's box then and now, the verdict, and for a refusal both states.
 */
export function writeReport(dir: string, out?: string): { file: string; steps: number } {
  const session = sessionsIn(dir).at(-1);
  if (!session) throw new Error(`no trace in ${dir}: run trueclick serve --trace-dir ${dir} first`);
  const records = readRecords(join(session, 'trace.jsonl'));
  const ids = records.flatMap((r) => [
    r.frame,
    (r.answer?.now as { id?: string } | undefined)?.id,
    r.answer?.approvalCrop as string | undefined,
  ]);
  const images = Object.fromEntries(
    ids
      .filter((f): f is string => Boolean(f))
      .map((f) => [f, existsSync(join(session, 'frames', `${f}.png`))]),
  );
  const file = out ?? join(session, 'report.html');
  writeFileSync(file, page(records, images, missesOf(records)));
  return { file, steps: records.length };
}

/** Every whole line of the trace; a line cut short by a kill is left out, the rest still reads. */
export function readRecords(path: string): TraceRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as TraceRecord];
      } catch {
        return [];
      }
    });
}

type Pt = { x: number; y: number };

/** What explains a session's misses: the verdict, the fitted scale and offset per axis, and why. */
interface MissDiagnosis {
  verdict: string;
  message: string;
  scale: Pt;
  offset: Pt;
}

/**
 * The session's misses as the seed diagnosed them: where each described target was in its frame (image px)
 * against where the model pointed, and the one mapping that explains them all, if one does: trueclick's own
 * FRAME_MISMATCH diagnosis when it made one, else the same fit over the misses of the trace.
 */
export function missesOf(records: TraceRecord[]): {
  pairs: Array<{ seq: number; target: Pt; given: Pt }>;
  diagnosis?: MissDiagnosis;
} {
  const pairs = records.flatMap((r) => {
    const a = (r.answer ?? {}) as { expectedAt?: { image?: Pt }; imagePoint?: Pt };
    return (r.verdict === 'MISSED_TARGET' || r.verdict === 'FRAME_MISMATCH') &&
      a.expectedAt?.image &&
      a.imagePoint
      ? [{ seq: r.seq, target: a.expectedAt.image, given: a.imagePoint }]
      : [];
  });
  const own = records
    .filter((r) => r.verdict === 'FRAME_MISMATCH' && r.answer?.diagnosis)
    .map((r) => r.answer?.diagnosis as MissDiagnosis)
    .at(-1);
  if (own) return { pairs, diagnosis: own };
  if (pairs.length === 0) return { pairs };
  const d: Diagnosis = diagnose(
    pairs.map((p) => ({ intended: [p.target.x, p.target.y], actual: [p.given.x, p.given.y] })),
  );
  return {
    pairs,
    diagnosis: {
      verdict: d.verdict,
      message: d.message,
      scale: { x: d.fit.x.scale, y: d.fit.y.scale },
      offset: { x: d.fit.x.offset, y: d.fit.y.offset },
    },
  };
}

const esc = (s: string) =>
  s.replace(/[<>&]/g, (c) => ({ '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' })[c] ?? c);

function page(
  records: TraceRecord[],
  images: Record<string, boolean>,
  misses: ReturnType<typeof missesOf>,
): string {
  const data = esc(JSON.stringify({ records, images, misses }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>trueclick session report</title>
<style>${CSS}</style></head>
<body>
<header><h1>trueclick session report</h1><div id="summary"></div>
<div class="filters"><label><input type="checkbox" id="refusals"> refusals and errors only</label>
<label>tool <select id="tool"><option value="">all</option></select></label></div></header>
<section id="misses" class="hidden"><h2>Misses: where the model pointed against where the target was</h2>
<svg id="plot"></svg><p id="diagnosis"></p></section>
<main id="steps"></main>
<script id="data" type="application/json">${data}</script>
<script>${SCRIPT}</script>
</body></html>
`;
}

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2327;background:#f6f7f7}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #dcdcde;padding:.6rem 1.2rem;z-index:2}
h1{font-size:1.1rem;margin:0 0 .3rem}
.filters{display:flex;gap:1.2rem;margin-top:.3rem}
#summary span{margin-right:1rem}
main{padding:1rem 1.2rem;display:flex;flex-direction:column;gap:1rem}
.step{background:#fff;border:1px solid #dcdcde;border-radius:6px;padding:.7rem .9rem}
.step h2{font-size:.95rem;margin:0 0 .3rem;display:flex;gap:.6rem;align-items:center}
.badge{font-size:.75rem;padding:.05rem .45rem;border-radius:3px;color:#fff;background:#50575e}
.badge.ok{background:#0b7a43}.badge.refused{background:#b26200}.badge.error{background:#b32d2e}
.meta{color:#50575e;font-size:.8rem}
.msg{margin:.3rem 0}
pre{background:#f6f7f7;padding:.4rem;overflow:auto;font-size:.75rem;max-height:8rem}
.shots{display:flex;gap:1rem;flex-wrap:wrap}
figure{margin:0;max-width:640px}
.frame{position:relative;outline:1px solid #dcdcde}
.frame img{width:100%;display:block}
.frame svg{position:absolute;left:0;top:0;width:100%;height:100%}
figcaption{font-size:.8rem;color:#50575e}
.asked{fill:none;stroke:#d0312d;stroke-width:3}
.landed{stroke:#0b7a43;stroke-width:3}
.followed{stroke:#0b7a43;stroke-width:2;stroke-dasharray:6 4}
.then{fill:none;stroke:#2271b1;stroke-width:3}
.now{fill:none;stroke:#b26200;stroke-width:3;stroke-dasharray:8 5}
.states{display:grid;grid-template-columns:1fr 1fr;gap:.6rem;font-size:.85rem}
.states div{background:#f6f7f7;padding:.4rem}
.hidden{display:none}
.approval{border-left:3px solid #d0312d;padding-left:.6rem;margin-top:.5rem}
#misses{background:#fff;border:1px solid #dcdcde;border-radius:6px;margin:1rem 1.2rem 0;padding:.7rem .9rem}
#misses h2{font-size:.95rem;margin:0}
#plot{width:100%;max-width:640px;max-height:420px;background:#f6f7f7}
.miss{stroke:#50575e;stroke-width:2}.target{fill:#2271b1}.given{fill:#d0312d}
`;

// The page's own script: builds the steps from the embedded records (no network, no framework).
const SCRIPT = `
const {records, images, misses} = JSON.parse(document.getElementById('data').textContent);
const frames = {};
for (const r of records) { const f = r.answer && r.answer.frame; if (f && typeof f === 'object' && f.id) frames[f.id] = f; }
const kind = (v) => !v ? '' : v === 'OK' ? 'ok' : /^(BAD_INPUT|BLOCKED|BROWSER_GONE|TIMEOUT|INTERNAL_ERROR)$/.test(v) ? 'error' : 'refused';
const el = (tag, attrs = {}, ...kids) => { const e = document.createElement(tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); for (const c of kids) e.append(c); return e; };
const svgEl = (tag, attrs) => { const e = document.createElementNS('http://www.w3.org/2000/svg', tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v)); return e; };
function describe(h) { return h ? (h.tag || '') + (h.text ? ' "' + h.text.slice(0, 80) + '"' : '') + (h.context ? ' in "' + h.context.slice(0, 80) + '"' : '') : 'nothing'; }
function figure(r, f, caption, parts, live) {
  const box = el('div', { class: 'frame' }, el('img', { src: 'frames/' + f.id + '.png', alt: 'frame ' + f.id }));
  const fig = el('figure', {}, box);
  const svg = svgEl('svg', { viewBox: '0 0 ' + f.image.width + ' ' + f.image.height, preserveAspectRatio: 'none' });
  const k = f.image.width / f.css.width;
  const a = r.answer || {};
  const rect = (h, cls) => { if (h && h.rect) svg.append(svgEl('rect', { class: cls, x: h.rect.x * k, y: h.rect.y * k, width: h.rect.width * k, height: h.rect.height * k })); };
  if (parts.includes('then')) rect(a.hitAtCapture, 'then');
  if (parts.includes('now')) rect(a.hitNow, 'now');
  if (a.imagePoint && !live) svg.append(svgEl('circle', { class: 'asked', cx: a.imagePoint.x, cy: a.imagePoint.y, r: 9 }));
  if (a.point && live) svg.append(svgEl('circle', { class: 'asked', cx: a.point.x * k, cy: a.point.y * k, r: 9 }));
  if (parts.includes('landed') && a.dispatched) {
    const x = a.dispatched.x * k, y = a.dispatched.y * k;
    // A followed record: the dashed line runs from the point the model gave to where the record was pressed.
    if (a.followed && a.imagePoint) svg.append(svgEl('line', { class: 'followed', x1: a.imagePoint.x, y1: a.imagePoint.y, x2: x, y2: y }));
    svg.append(svgEl('line', { class: 'landed', x1: x - 12, y1: y, x2: x + 12, y2: y }), svgEl('line', { class: 'landed', x1: x, y1: y - 12, x2: x, y2: y + 12 }));
  }
  box.append(svg);
  fig.append(el('figcaption', {}, caption));
  return fig;
}
// A press put to a person: how they were asked and answered, the crop they saw beside the page after it.
function approval(r) {
  const a = r.answer, p = a.approval;
  const secs = (ms) => ms == null ? '?' : ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(1) + ' s';
  const said = p.asked ? 'Asked the person (' + p.route + ')' + (p.url ? ' at ' + p.url : '') + ': ' + p.sentence
    : (p.approved ? 'Approved' : 'Declined') + ' by the person (' + p.route + ') after ' + secs(p.waitedMs) + ', the frame ' + secs(p.frameAgeAtAnswerMs) + ' old at the answer' + (p.yesToPressMs != null ? '; the re-read took ' + secs(p.yesToPressMs) + ' from the yes to the press' : '') + '; then ' + r.verdict + '.';
  const box = el('div', { class: 'approval' }, el('p', { class: 'msg' }, said));
  const shots = el('div', { class: 'shots' });
  if (a.approvalCrop && images[a.approvalCrop]) shots.append(el('figure', {}, el('div', { class: 'frame' }, el('img', { src: 'frames/' + a.approvalCrop + '.png', alt: 'what the person was shown' })), el('figcaption', {}, 'what the person was shown: frame ' + (r.frame || '') + ' around the point')));
  if (a.now && images[a.now.id]) shots.append(figure(r, a.now, (p.asked ? 'the page when the person was asked' : 'the page after the answer' + (r.verdict === 'OK' ? ' and the press' : '')) + ' (the circle is the point)', [], true));
  if (shots.children.length) box.append(shots);
  return box;
}
const main = document.getElementById('steps');
const counts = {}; const tools = new Set();
for (const r of records) {
  const v = r.verdict || 'no verdict'; counts[v] = (counts[v] || 0) + 1; tools.add(r.tool);
  const card = el('section', { class: 'step', 'data-tool': r.tool, 'data-verdict': r.verdict || '', 'data-kind': kind(r.verdict) });
  card.append(el('h2', {}, '#' + r.seq + ' ' + r.tool, el('span', { class: 'badge ' + kind(r.verdict) }, r.verdict || '—'), el('span', { class: 'meta' }, r.ms + ' ms · ' + new Date(r.t).toISOString().slice(11, 23))));
  if (r.message) card.append(el('p', { class: 'msg' }, r.message));
  if (r.notice) card.append(el('p', { class: 'meta' }, 'Notice: ' + r.notice));
  card.append(el('pre', {}, JSON.stringify(r.args)));
  const f = r.frame && frames[r.frame];
  if (f && images[r.frame]) {
    const shots = el('div', { class: 'shots' });
    const a = r.answer || {};
    if (kind(r.verdict) === 'refused' && a.hitAtCapture !== undefined) {
      shots.append(figure(r, f, 'in frame ' + f.id + ': ' + describe(a.hitAtCapture) + ' (blue box); the circle is the point the model gave', ['then']));
      const now = a.now && images[a.now.id] ? a.now : f;
      shots.append(figure(r, now, (now === f ? 'now (drawn on the frame; no image of now was kept): ' : 'now, the page after the refusal: ') + describe(a.hitNow) + ' (orange box)', ['now'], now !== f));
    } else shots.append(figure(r, f, r.tool === 'browser_screenshot' || r.tool === 'browser_zoom' ? 'frame ' + f.id + ' as the model saw it' : 'frame ' + f.id + ': circle = the point the model gave, cross = where the input went' + (a.followed ? ' (followed: "' + a.followed.record + '" had moved there, dashed line)' : '') + ', box = ' + describe(a.hitAtCapture), ['then', 'landed']));
    card.append(shots);
    if (kind(r.verdict) === 'refused' && a.changes) card.append(el('pre', {}, JSON.stringify(a.changes, null, 1)));
  } else if (r.frame && !images[r.frame] && frames[r.frame]) card.append(el('p', { class: 'meta' }, 'frame ' + r.frame + ' image dropped (trace size cap)'));
  if (r.answer && r.answer.approval) card.append(approval(r));
  main.append(card);
}
const ms = records.map((r) => r.ms).sort((a, b) => a - b);
const median = ms.length ? ms[Math.floor(ms.length / 2)] : 0;
document.getElementById('summary').append(...[el('span', {}, records.length + ' steps'), ...Object.entries(counts).map(([v, n]) => el('span', { 'data-count': v }, v + ': ' + n)), el('span', {}, 'median ' + median + ' ms a step')]);
const pick = document.getElementById('tool');
for (const t of [...tools].sort()) pick.append(el('option', { value: t }, t));
function filter() {
  const only = document.getElementById('refusals').checked, tool = pick.value;
  for (const c of main.children) c.classList.toggle('hidden', (only && !/refused|error/.test(c.dataset.kind)) || (tool && c.dataset.tool !== tool));
}
document.getElementById('refusals').addEventListener('change', filter);
if (misses.pairs.length) {
  const sec = document.getElementById('misses'); sec.classList.remove('hidden');
  const plot = document.getElementById('plot');
  const xs = misses.pairs.flatMap((p) => [p.target.x, p.given.x]), ys = misses.pairs.flatMap((p) => [p.target.y, p.given.y]);
  const w = Math.max(...xs) + 40, h = Math.max(...ys) + 40;
  plot.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
  for (const p of misses.pairs) {
    plot.append(svgEl('line', { class: 'miss', x1: p.target.x, y1: p.target.y, x2: p.given.x, y2: p.given.y }));
    plot.append(svgEl('circle', { class: 'target', cx: p.target.x, cy: p.target.y, r: 7, 'data-seq': p.seq }));
    plot.append(svgEl('circle', { class: 'given', cx: p.given.x, cy: p.given.y, r: 7, 'data-seq': p.seq }));
  }
  const d = misses.diagnosis;
  const fit = d ? 'x → ' + d.scale.x.toFixed(3) + '·x ' + (d.offset.x >= 0 ? '+ ' : '− ') + Math.abs(d.offset.x).toFixed(1) + ', y → ' + d.scale.y.toFixed(3) + '·y ' + (d.offset.y >= 0 ? '+ ' : '− ') + Math.abs(d.offset.y).toFixed(1) : '';
  document.getElementById('diagnosis').textContent = misses.pairs.length + ' misses (blue: the target in its frame, red: where the model pointed, image px). ' + (d ? d.verdict + ': ' + d.message + ' Fitted: ' + fit + '.' : '');
}
pick.addEventListener('change', filter);
`;
