// Aggregates and renders a matrix run: hit rates by scale source x devicePixelRatio (and by preset), every
// trueclick miss with its cell, and the JSON form for machines.

import { cellLabel } from './cells.js';
import type { ClickResult, MatrixRun } from './run.js';

export interface Tally {
  n: number;
  trueclick: number;
  naive: number;
  /** Naive clicks attempted (0 when the run had --no-naive). */
  naiveN: number;
  problems: number;
}

function tally(rs: ClickResult[]): Tally {
  const t: Tally = { n: 0, trueclick: 0, naive: 0, naiveN: 0, problems: 0 };
  for (const r of rs) {
    t.n++;
    if (r.trueclick.hit) t.trueclick++;
    if (r.naive) {
      t.naiveN++;
      if (r.naive.hit) t.naive++;
    }
    if (r.problem) t.problems++;
  }
  return t;
}

function groupBy<K extends string>(rs: ClickResult[], key: (r: ClickResult) => K): Map<K, ClickResult[]> {
  const m = new Map<K, ClickResult[]>();
  for (const r of rs) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r);
    else m.set(k, [r]);
  }
  return m;
}

/** A trueclick miss: the intended element did not get the click (or the oracle/picture check failed). */
export function isFailure(r: ClickResult): boolean {
  return !r.trueclick.hit || r.problem !== undefined;
}

export interface Summary {
  total: Tally;
  rows: Array<{ source: string; dpr: number } & Tally>;
  byPreset: Array<{ preset: string } & Tally>;
  byDownscale: Array<{ downscale: string } & Tally>;
  failures: ClickResult[];
}

export function summarize(run: MatrixRun): Summary {
  const rs = run.results;
  const rows = [...groupBy(rs, (r) => `${r.cell.source} ${r.cell.dpr}`).values()].map((g) => {
    const c = (g[0] as ClickResult).cell;
    return { source: c.source, dpr: c.dpr, ...tally(g) };
  });
  rows.sort((a, b) =>
    a.source === b.source
      ? a.dpr - b.dpr
      : run.spec.sources.indexOf(a.source as never) - run.spec.sources.indexOf(b.source as never),
  );
  const byPreset = run.spec.presets.map((preset) => ({
    preset,
    ...tally(rs.filter((r) => r.cell.preset === preset)),
  }));
  const byDownscale = run.spec.downscales.map((downscale) => ({
    downscale,
    ...tally(rs.filter((r) => r.cell.downscale === downscale)),
  }));
  return { total: tally(rs), rows, byPreset, byDownscale, failures: rs.filter(isFailure) };
}

export function pct(hits: number, n: number): string {
  if (n === 0) return '-';
  if (hits === n) return '100%';
  return `${((100 * hits) / n).toFixed(1)}%`;
}

export function rate(hits: number, n: number): string {
  return n === 0 ? '-' : `${pct(hits, n)} (${hits}/${n})`;
}

export function grid(header: string[], rows: string[][], right: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const fmt = (n: number) => (Math.round(n * 10) / 10).toString();

export function describeFailure(r: ClickResult): string {
  const tc = r.trueclick;
  const out = [
    `  [${cellLabel(r.cell)}] #${r.id} at CSS (${fmt(r.box.left)}, ${fmt(r.box.top)})-(${fmt(r.box.right)}, ${fmt(r.box.bottom)})`,
  ];
  if (r.text) {
    out.push(
      `    model_output ${JSON.stringify(r.text)}${r.shownWidth ? `, shown_width ${r.shownWidth}` : ''} (image ${r.image.width}x${r.image.height})`,
    );
  }
  if (tc.error) out.push(`    trueclick refused: ${tc.error}`);
  else {
    const where = tc.dispatched
      ? `dispatched at CSS (${fmt(tc.dispatched.x)}, ${fmt(tc.dispatched.y)})`
      : 'nothing dispatched';
    const landed =
      tc.landedId === undefined
        ? tc.dispatched
          ? ', no click event reached the page'
          : ''
        : `, the page saw the click on ${tc.landedId ? `#${tc.landedId}` : 'an element without id'}`;
    out.push(`    trueclick ${tc.verdict}: ${where}${landed}${tc.message ? `. ${tc.message}` : ''}`);
  }
  if (r.problem) out.push(`    problem: ${r.problem}`);
  return out.join('\n');
}

export function renderText(run: MatrixRun, s: Summary, opts: { maxFailures?: number } = {}): string {
  const naive = run.spec.naive;
  const dims = [
    `DPR {${run.spec.dprs.join(', ')}}`,
    `scale source {${run.spec.sources.join(', ')}}`,
    `scrollbar {${run.spec.scrollbars.join(', ')}}`,
    `scroll {${run.spec.scrolls.join(', ')}}`,
    `client downscale {${run.spec.downscales.join(', ')}}`,
    `${run.spec.presets.length} presets`,
    `targets {${run.spec.targets.join(', ')}}`,
  ].join(' x ');
  const out: string[] = [];
  out.push(
    `trueclick matrix: ${s.total.n} clicks, ${run.configs.length} browsers, ${(run.ms / 1000).toFixed(1)} s`,
  );
  out.push(dims);
  out.push('');
  const header = ['scale source', 'DPR', 'trueclick', ...(naive ? ['naive'] : []), 'n'];
  const right = [false, true, true, ...(naive ? [true] : []), true];
  const body = s.rows.map((r) => [
    r.source,
    String(r.dpr),
    pct(r.trueclick, r.n),
    ...(naive ? [pct(r.naive, r.naiveN)] : []),
    String(r.n),
  ]);
  body.push([
    'all',
    '',
    pct(s.total.trueclick, s.total.n),
    ...(naive ? [pct(s.total.naive, s.total.naiveN)] : []),
    String(s.total.n),
  ]);
  out.push(grid(header, body, right));
  out.push('');
  const ph = ['preset', 'trueclick', ...(naive ? ['naive'] : []), 'n'];
  const pr = s.byPreset.map((p) => [
    p.preset,
    pct(p.trueclick, p.n),
    ...(naive ? [pct(p.naive, p.naiveN)] : []),
    String(p.n),
  ]);
  out.push(grid(ph, pr, [false, true, ...(naive ? [true] : []), true]));
  out.push('');
  out.push(
    `by client downscale: ${s.byDownscale.map((d) => `${d.downscale} ${pct(d.trueclick, d.n)}${naive ? ` / naive ${pct(d.naive, d.naiveN)}` : ''}`).join(', ')}`,
  );
  for (const c of run.configs) if (c.error) out.push(`SETUP FAILED: ${c.error}`);
  if (s.failures.length === 0) {
    out.push(
      `trueclick: every click landed on the intended element (${rate(s.total.trueclick, s.total.n)}).`,
    );
  } else {
    const max = opts.maxFailures ?? Number.POSITIVE_INFINITY;
    out.push(`trueclick MISSES: ${s.failures.length} of ${s.total.n} cells failed:`);
    for (const f of s.failures.slice(0, max)) out.push(describeFailure(f));
    if (s.failures.length > max)
      out.push(`  ... and ${s.failures.length - max} more (--json lists them all)`);
  }
  return out.join('\n');
}

export function renderJson(run: MatrixRun, s: Summary): string {
  return JSON.stringify(
    {
      spec: run.spec,
      ms: run.ms,
      total: s.total,
      rows: s.rows,
      byPreset: s.byPreset,
      byDownscale: s.byDownscale,
      configs: run.configs,
      failures: s.failures,
      results: run.results,
    },
    null,
    0,
  );
}
