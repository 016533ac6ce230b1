import cliProgress from 'cli-progress';

/** The matrix's progress bar on stderr, shown when asked or when stderr is a terminal; undefined otherwise. */
export function progressBar(show: boolean | undefined, format: string): cliProgress.SingleBar | undefined {
  if (!(show ?? process.stderr.isTTY)) return undefined;
  return new cliProgress.SingleBar(
    // The ETA averages the last 200 cells: configs differ in speed (a browser starts per config).
    { stream: process.stderr, format, etaBuffer: 200, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
}
