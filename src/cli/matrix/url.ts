// `trueclick matrix --url URL --target SELECTOR`: the options, the progress bar and the exit status of the
// matrix on the user's own page (url-run.ts). Exit 0 when every click on a clickable target reached it, 1 on
// any trueclick miss or a browser that could not be set up, 2 on bad options.

import { readFileSync } from 'node:fs';
import { SpecError, type SpecFlags, specFromFlags, VIEWPORT } from './cells.js';
import { progressBar } from './progress.js';
import { runUrlMatrix, type UrlMatrixSpec, urlCellCount } from './url-run.js';
import { isUrlMiss, renderUrlJson, renderUrlText } from './url-table.js';

export interface UrlFlags {
  url?: string;
  target?: string[];
  targetsFile?: string;
  viewport?: { width: number; height: number };
  storageState?: string;
  userDataDir?: string;
  traceDir?: string;
}

interface Flags extends UrlFlags, SpecFlags {
  json?: boolean;
  executablePath?: string;
  progress?: boolean;
}

/** The spec the flags ask for; throws SpecError with what to fix. */
export function urlSpecFromFlags(o: Flags): UrlMatrixSpec {
  if (!o.url) throw new SpecError('--target and --targets-file need --url (the page to run on)');
  let url: URL;
  try {
    url = new URL(o.url);
  } catch {
    throw new SpecError(`--url "${o.url}" is not a URL; pass e.g. https://app.example.com/inbox`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && url.protocol !== 'file:')
    throw new SpecError(`--url must be http:, https: or file:, not ${url.protocol}`);
  if (o.targets !== undefined)
    throw new SpecError('--targets names the fixture page’s targets; on your page use --target SELECTOR');
  const targets = [...(o.target ?? [])];
  if (o.targetsFile) {
    let text: string;
    try {
      text = readFileSync(o.targetsFile, 'utf8');
    } catch (err) {
      throw new SpecError(`--targets-file ${o.targetsFile}: ${(err as Error).message}`);
    }
    // "#row-7 .archive" is a selector; "# note" (a hash and a space) or "// note" is a comment.
    for (const line of text.split('\n').map((l) => l.trim()))
      if (line !== '' && line !== '#' && !line.startsWith('# ') && !line.startsWith('//')) targets.push(line);
  }
  if (targets.length === 0)
    throw new SpecError('--url needs at least one --target (a selector or name=<accessible name>)');
  if (o.storageState && o.userDataDir)
    throw new SpecError('pass --storage-state or --user-data-dir, not both');
  // On the user's page the default scroll is where it loads; `scrolled` scrolls it by 1000 CSS px.
  const base = specFromFlags({ ...o, targets: undefined, scrolls: o.scrolls ?? 'top' });
  const spec: UrlMatrixSpec = { ...base, url: url.href, targets, viewport: o.viewport ?? { ...VIEWPORT } };
  if (o.storageState) spec.storageState = o.storageState;
  if (o.traceDir) spec.traceDir = o.traceDir;
  if (o.userDataDir) spec.userDataDir = o.userDataDir;
  if (o.executablePath) spec.executablePath = o.executablePath;
  return spec;
}

export async function urlMatrix(o: Flags): Promise<number> {
  let spec: UrlMatrixSpec;
  try {
    spec = urlSpecFromFlags(o);
  } catch (err) {
    if (!(err instanceof SpecError)) throw err;
    console.error(`trueclick matrix: ${err.message}`);
    return 2;
  }
  const bar = progressBar(
    o.progress,
    'matrix {bar} {percentage}% | {value}/{total} cells | trueclick misses {misses} | ETA {eta_formatted}',
  );
  let misses = 0;
  bar?.start(urlCellCount(spec), 0, { misses });
  const run = await runUrlMatrix(spec, {
    onResult: (r) => {
      if (isUrlMiss(r)) misses++;
      bar?.increment(1, { misses });
    },
  });
  bar?.stop();
  console.log(o.json ? renderUrlJson(run) : renderUrlText(run));
  return run.results.some(isUrlMiss) || run.errors.length > 0 ? 1 : 0;
}
