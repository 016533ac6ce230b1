// `trueclick matrix`: the grounding round-trip suite of SPEC S5/S7. Exit code 0 when every trueclick click
// landed on the intended element, 1 on any miss (each printed with its cell), 2 on bad options.

import {
  cellCount,
  configLabel,
  type MatrixSpec,
  SpecError,
  type SpecFlags,
  specFromFlags,
} from './cells.js';
import { progressBar } from './progress.js';
import { runMatrix } from './run.js';
import { renderJson, renderText, summarize } from './table.js';
import { type UrlFlags, urlMatrix } from './url.js';

export { cellCount, FULL_SPEC, type MatrixSpec, REDUCED_SPEC } from './cells.js';
export { type ClickResult, type MatrixRun, runMatrix } from './run.js';
export { describeFailure, isFailure, summarize } from './table.js';

export interface MatrixOptions extends SpecFlags, UrlFlags {
  json?: boolean;
  concurrency?: number;
  executablePath?: string;
  /** Show the progress bar (default: when stderr is a terminal). */
  progress?: boolean;
}

export async function matrix(o: MatrixOptions): Promise<number> {
  if (o.url !== undefined || o.target !== undefined || o.targetsFile !== undefined) return urlMatrix(o);
  let spec: MatrixSpec;
  try {
    spec = specFromFlags(o);
  } catch (err) {
    if (!(err instanceof SpecError)) throw err;
    console.error(`trueclick matrix: ${err.message}`);
    return 2;
  }
  const total = cellCount(spec);
  const bar = progressBar(
    o.progress,
    'matrix {bar} {percentage}% | {value}/{total} clicks | trueclick misses {misses} | {config} | ETA {eta_formatted}',
  );
  let misses = 0;
  bar?.start(total, 0, { misses, config: 'starting browsers' });
  const runOpts: Parameters<typeof runMatrix>[1] = {
    concurrency: o.concurrency ?? 1,
    onResult: (r) => {
      if (!r.trueclick.hit || r.problem) misses++;
      bar?.increment(1, { misses, config: configLabel(r.cell) });
    },
  };
  if (o.executablePath) runOpts.executablePath = o.executablePath;
  const run = await runMatrix(spec, runOpts);
  bar?.stop();
  const summary = summarize(run);
  console.log(o.json ? renderJson(run, summary) : renderText(run, summary, { maxFailures: 200 }));
  const setupFailed = run.configs.some((c) => c.error);
  return summary.failures.length > 0 || setupFailed ? 1 : 0;
}
