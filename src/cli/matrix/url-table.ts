// The URL matrix's report: per target and per devicePixelRatio, how many clicks reached the target through
// trueclick and naively, which cells no click could reach (and why), and every trueclick miss with its cell.

import { grid, pct, rate } from './table.js';
import type { UrlClickResult, UrlMatrixRun } from './url-run.js';

/** A trueclick miss: a target that could be clicked did not receive trueclick's click. */
export const isUrlMiss = (r: UrlClickResult) => !r.unclickable && !r.trueclick?.hit;

interface Tally {
  clicked: number;
  trueclick: number;
  naive: number;
  naiveN: number;
  unclickable: Map<string, number>;
}

function tally(rs: UrlClickResult[]): Tally {
  const t: Tally = { clicked: 0, trueclick: 0, naive: 0, naiveN: 0, unclickable: new Map() };
  for (const r of rs) {
    if (r.unclickable) {
      t.unclickable.set(r.unclickable, (t.unclickable.get(r.unclickable) ?? 0) + 1);
      continue;
    }
    t.clicked++;
    if (r.trueclick?.hit) t.trueclick++;
    if (r.naive) {
      t.naiveN++;
      if (r.naive.hit) t.naive++;
    }
  }
  return t;
}

const why = (t: Tally) =>
  [...t.unclickable.entries()].map(([reason, n]) => `${n} × ${reason}`).join('; ') || '-';

function row(label: string[], t: Tally, naive: boolean): string[] {
  return [
    ...label,
    t.clicked ? rate(t.trueclick, t.clicked) : '-',
    ...(naive ? [t.naiveN ? rate(t.naive, t.naiveN) : '-'] : []),
    why(t),
  ];
}

const at = (r: UrlClickResult) =>
  `${r.cell.source} DPR ${r.cell.dpr}, ${r.cell.scrollbar} scrollbar, ${r.cell.scroll}, downscale ${r.cell.downscale}, ${r.cell.preset}`;

export function renderUrlText(run: UrlMatrixRun): string {
  const { spec, results } = run;
  const naive = spec.naive;
  const all = tally(results);
  const out: string[] = [];
  out.push(
    `trueclick matrix on ${spec.url}: ${results.length} cells (${all.clicked} clicked, ${results.length - all.clicked} not clickable), ${(run.ms / 1000).toFixed(1)} s`,
  );
  out.push(
    [
      `viewport ${spec.viewport.width}×${spec.viewport.height}`,
      `DPR {${spec.dprs.join(', ')}}`,
      `scale source {${spec.sources.join(', ')}}`,
      `scrollbar {${spec.scrollbars.join(', ')}}`,
      `scroll {${spec.scrolls.join(', ')}}`,
      `client downscale {${spec.downscales.join(', ')}}`,
      `presets {${spec.presets.join(', ')}}`,
    ].join(' × '),
  );
  out.push('');
  const head = (first: string[]) => [
    ...first,
    'trueclick',
    ...(naive ? ['naive'] : []),
    'not clickable (cells)',
  ];
  const right = (n: number) => [...Array(n).fill(false), true, ...(naive ? [true] : []), false];
  out.push(
    grid(
      head(['target']),
      spec.targets.map((t) => row([t], tally(results.filter((r) => r.cell.target === t)), naive)),
      right(1),
    ),
  );
  out.push('');
  const configs = [...new Set(results.map((r) => `${r.cell.source}\t${r.cell.dpr}`))];
  out.push(
    grid(
      head(['scale source', 'DPR']),
      configs.map((c) => {
        const [source = '', dpr = ''] = c.split('\t');
        return row(
          [source, dpr],
          tally(results.filter((r) => r.cell.source === source && String(r.cell.dpr) === dpr)),
          naive,
        );
      }),
      [false, ...right(1)],
    ),
  );
  for (const e of run.errors) out.push(`SETUP FAILED: ${e}`);
  const misses = results.filter(isUrlMiss);
  if (misses.length === 0) {
    out.push(
      all.clicked > 0
        ? `trueclick: every click on a clickable target reached it (${pct(all.trueclick, all.clicked)}).`
        : 'trueclick: no target could be clicked in any cell.',
    );
  } else {
    out.push(`trueclick MISSES: ${misses.length} of ${all.clicked} clicks:`);
    for (const m of misses.slice(0, 100)) {
      const tc = m.trueclick;
      out.push(
        `  [${at(m)}] ${m.cell.target}: ${tc?.error ?? `${tc?.verdict}${tc?.dispatched ? ', dispatched, the target did not receive it' : ', nothing dispatched'}${tc?.message ? `. ${tc.message}` : ''}`} (model_output ${JSON.stringify(m.text)})`,
      );
    }
  }
  return out.join('\n');
}

export function renderUrlJson(run: UrlMatrixRun): string {
  return JSON.stringify({
    spec: run.spec,
    ms: run.ms,
    errors: run.errors,
    misses: run.results.filter(isUrlMiss).length,
    results: run.results,
  });
}
