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
  /** Runs of each stale soak on the real-web corpus (AG Grid, React list), trueclick and naive each. */
  realwebStaleRuns: number;
  /** Runs of each race soak on the real-web corpus, trueclick and naive each. */
  realwebRaceRuns: number;
  /** Stale-soak runs on the canvas table (pixels section), trueclick and naive each. */
  pixelRuns: number;
  /** Runs of the approval soak (the person answers in 2–30 s, --quick 0.2–3 s). */
  approvalRuns: number;
  /** Screenshot + click cycles per session at 1, 4, 8 and 16 concurrent sessions (sessions section; at
   * least as many as give each level 10 samples). */
  sessionCycles: number;
  modelDelayMs: number;
  /** Clicks on the living corpus, each of still and moved pages (and a third as many naive ones). */
  livingClicks: number;
  /** Lanes the living corpus runs in (its pages spread over them, each lane its own browsers). */
  livingLanes: number;
  /** Scripted-agent tasks per page, for each tool. */
  agentTasks: number;
  /** The share of the agent's thinks during which the page moves (issue 33's world: 0.8). */
  agentMoveShare: number;
  only: Set<Section>;
  quick: boolean;
}

export const USAGE = `npm run bench -- [--runs N] [--quick] [--only ${SECTIONS.join(',')}]
       [--stale-runs N] [--race-clicks N] [--exposure-clicks N] [--stale-lanes N]
       [--realweb-stale-runs N] [--realweb-race-runs N] [--pixel-runs N] [--approval-runs N]
       [--session-cycles N] [--living-clicks N] [--living-lanes N] [--agent-tasks N]
       [--agent-move-share F]

  --runs N               measured runs per timed thing, after warm-up (default 10, the SPEC's least;
                         warm-up 3, --quick 1)
  --quick                fewer runs of every count and 3 rounds of the peers' timings, for a check
                         before a change lands
  --only a,b             sections to run: ${SECTIONS.join(', ')}
  --stale-runs N         ticket-queue runs with a 900 ms model delay (default 50, the SPEC's; --quick 8)
  --race-clicks N        guarded and awaited-check clicks on /race (default 500, the SPEC's; --quick 100);
                         naive: min(N, 100), --quick 50
  --exposure-clicks N    extra guarded clicks for the hit-test → event gap (default 200, --quick 50)
  --stale-lanes N        stale runs in N parallel lanes (default 2)
  --realweb-stale-runs N each real-web stale soak (AG Grid, React list), trueclick and naive each
                         (default 16, --quick 4)
  --realweb-race-runs N  each real-web race soak, trueclick and naive each (default 10, --quick 2)
  --pixel-runs N         canvas-table stale soak of the pixels section (default 10, --quick 4)
  --approval-runs N      approval soak runs, the person answering in 2–30 s (--quick 0.2–3 s)
                         (default 30, --quick 4)
  --session-cycles N     screenshot + click cycles per session at 1, 4, 8 and 16 sessions, at least as
                         many as give 10 samples per level, after 1 warm-up cycle (default 2: 10, 3, 2
                         and 2 cycles; --quick: 1 and 4 sessions only)
  --living-clicks N      clicks on the living corpus, each of still and moved pages (default 204,
                         --quick 10: one per page), spread over its ten pages; a third as many naive clicks
                         beside them, and half as many moved ones with follow
  --living-lanes N       lanes the living corpus runs in, each its own browsers (default 3)
  --agent-tasks N        scripted-agent tasks on each of its eight pages, for each of the four lanes
                         (trueclick, trueclick with follow, both peers; default 5: 40 tasks; --quick 1, no peers)
  --agent-move-share F   share of the agent's thinks during which the page moves (default 0.8, the
                         world of the follow lane's targets, which are checked at 0.8 only)`;

function int(name: string, v: string | undefined, min: number): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} needs a whole number ≥ ${min}, got "${v ?? ''}"`);
  return n;
}

type CountKey = { [K in keyof BenchOptions]: BenchOptions[K] extends number ? K : never }[keyof BenchOptions];

/** The flags that take a whole number: the option each sets, and its least value. */
const COUNTS = new Map<string, [CountKey, number]>(
  Object.entries({
    '--runs': ['runs', 1],
    '--stale-runs': ['staleRuns', 1],
    '--stale-lanes': ['staleLanes', 1],
    '--race-clicks': ['raceClicks', 1],
    '--exposure-clicks': ['exposureClicks', 0],
    '--realweb-stale-runs': ['realwebStaleRuns', 1],
    '--realweb-race-runs': ['realwebRaceRuns', 1],
    '--pixel-runs': ['pixelRuns', 1],
    '--approval-runs': ['approvalRuns', 1],
    '--session-cycles': ['sessionCycles', 1],
    '--living-clicks': ['livingClicks', 1],
    '--living-lanes': ['livingLanes', 1],
    '--agent-tasks': ['agentTasks', 1],
  } satisfies Record<string, [CountKey, number]>),
);

export function parseArgs(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const o: BenchOptions = {
    runs: 10,
    warmup: quick ? 1 : 3,
    exposureClicks: quick ? 50 : 200,
    raceClicks: quick ? 100 : 500,
    raceNaiveClicks: quick ? 50 : 100,
    staleRuns: quick ? 8 : 50,
    staleLanes: 2,
    realwebStaleRuns: quick ? 4 : 16,
    realwebRaceRuns: quick ? 2 : 10,
    pixelRuns: quick ? 4 : 10,
    approvalRuns: quick ? 4 : 30,
    sessionCycles: 2,
    modelDelayMs: 900,
    livingClicks: quick ? 10 : 204,
    livingLanes: 3,
    agentTasks: quick ? 1 : 5,
    agentMoveShare: 0.8,
    only: new Set(SECTIONS),
    quick,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const [flag, inline] = a.includes('=') ? (a.split('=', 2) as [string, string]) : [a, undefined];
    const value = () => inline ?? argv[++i];
    const count = COUNTS.get(flag);
    if (count) {
      const [key, min] = count;
      o[key] = int(flag, value(), min);
      if (key === 'raceClicks') o.raceNaiveClicks = Math.min(quick ? 50 : 100, o.raceClicks);
      continue;
    }
    switch (flag) {
      case '--quick':
        break;
      case '--agent-move-share': {
        const v = value();
        const f = Number(v);
        if (!(f >= 0 && f <= 1))
          throw new Error(`--agent-move-share needs a number from 0 to 1, got "${v ?? ''}"`);
        o.agentMoveShare = f;
        break;
      }
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
