/** Command-line flags of `npm run bench` (node dist/bench/run.js). */

export const SECTIONS = [
  'capture',
  'click',
  'marks',
  'exposure',
  'race',
  'stale',
  'realweb',
  'sessions',
  'pagesize',
  'pixels',
  'living',
  'agent',
  'approval',
  'tokens',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  /** Measured runs per timed thing (after warm-up). */
  runs: number;
  warmup: number;
  /** Extra guarded clicks for the hit-test → event gap (exposureMs). */
  exposureClicks: number;
  raceClicks: number;
  /** The naive race variant takes a capture per click, so it runs fewer clicks. */
  raceNaiveClicks: number;
  staleRuns: number;
  /** Parallel lanes for the stale guard (one trueclick server and one naive tab each). */
  staleLanes: number;
  modelDelayMs: number;
  /** Clicks on the living corpus, each of still and moved pages (and as many naive ones). */
  livingClicks: number;
  /** Scripted-agent tasks per page, for each tool. */
  agentTasks: number;
  only: Set<Section>;
  quick: boolean;
}

export const USAGE = `npm run bench -- [--runs N] [--quick] [--only ${SECTIONS.join(',')}]
       [--stale-runs N] [--race-clicks N] [--exposure-clicks N] [--stale-lanes N] [--living-clicks N]
       [--agent-tasks N]

  --runs N             measured runs per timed thing, after warm-up (default 15, --quick 10; at least 10)
  --quick              fewer runs: 10 timed, race 200 clicks, stale 16 runs, exposure 50 clicks
  --only a,b           sections to run: ${SECTIONS.join(', ')}
  --stale-runs N       ticket-queue runs with a 900 ms model delay (default 50; also the
                       corpus grid and list stale soaks of the realweb section, the
                       canvas-table soak of the pixels section and the approval soak, whose
                       person answers in 2–30 s, --quick 0.2–3 s)
  --race-clicks N      guarded and awaited-check clicks on /race (default 500; naive: min(N, 200);
                       the realweb race soaks: min(naive, 100) per subject)
  --exposure-clicks N  extra guarded clicks for the hit-test → event gap (default 200)
  --stale-lanes N      stale runs in N parallel lanes (default 2)
  --living-clicks N    clicks on the living corpus, each of still and moved pages (default 204,
                       --quick 60), spread over its six pages; naive clicks beside them
  --agent-tasks N      scripted-agent tasks per living page, for each of the three tools
                       (default 8, --quick 3)`;

function int(name: string, v: string | undefined, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} needs a whole number ≥ ${min}, got "${v ?? ''}"`);
  return n;
}

export function parseArgs(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const o: BenchOptions = {
    runs: quick ? 10 : 15,
    warmup: quick ? 2 : 3,
    exposureClicks: quick ? 50 : 200,
    raceClicks: quick ? 200 : 500,
    raceNaiveClicks: quick ? 100 : 200,
    staleRuns: quick ? 16 : 50,
    staleLanes: 2,
    modelDelayMs: 900,
    livingClicks: quick ? 60 : 204,
    agentTasks: quick ? 3 : 8,
    only: new Set(SECTIONS),
    quick,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const [flag, inline] = a.includes('=') ? (a.split('=', 2) as [string, string]) : [a, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--quick':
        break;
      case '--runs':
        o.runs = int('--runs', value(), 1);
        break;
      case '--stale-runs':
        o.staleRuns = int('--stale-runs', value(), 1);
        break;
      case '--race-clicks':
        o.raceClicks = int('--race-clicks', value(), 1);
        o.raceNaiveClicks = Math.min(o.raceNaiveClicks, o.raceClicks);
        break;
      case '--exposure-clicks':
        o.exposureClicks = int('--exposure-clicks', value(), 0);
        break;
      case '--living-clicks':
        o.livingClicks = int('--living-clicks', value(), 1);
        break;
      case '--agent-tasks':
        o.agentTasks = int('--agent-tasks', value(), 1);
        break;
      case '--stale-lanes':
        o.staleLanes = int('--stale-lanes', value(), 1);
        break;
      case '--only': {
        const list = (value() ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const bad = list.filter((s) => !(SECTIONS as readonly string[]).includes(s));
        if (bad.length > 0 || list.length === 0)
          throw new Error(`--only takes ${SECTIONS.join(', ')}; got "${list.join(',')}"`);
        o.only = new Set(list as Section[]);
        break;
      }
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`unknown flag ${a}\n${USAGE}`);
    }
  }
  return o;
}
