/** The results as text tables for the terminal and as markdown for bench/RESULTS.md. */
import type { AgentRow } from './agent.js';
import type { Machine } from './machine.js';
import type { Check, CountRow, GapRow, Measure, Section, ToolListRow } from './results.js';
import { fmtMs, fmtRatio } from './stats.js';

type Row = string[];

interface Table {
  title: string;
  head: Row;
  rows: Row[];
  /** Columns aligned right (numbers). */
  right: number[];
}

const met = (m: boolean | null) => (m === null ? 'n/a' : m ? 'yes' : 'NO');

/** Measures grouped by section and page, each trueclick row followed by its target checks. */
function speedTable(s: Section): Table {
  const rows: Row[] = [];
  const base = (m: Measure) =>
    s.measures.find((x) => x.page === m.page && x.key === `capture.${m.page}.cdp.full`);
  const tcClick = (m: Measure) => s.measures.find((x) => x.key === `click.${m.page}.trueclick`);
  const checksFor = (m: Measure): Check[] => {
    if (m.key === `capture.${m.page}.trueclick`)
      return s.checks.filter((c) => c.key.startsWith(`capture.${m.page}.vs-`));
    if (m.key === `click.${m.page}.trueclick`)
      return s.checks.filter((c) => c.key.startsWith(`click.${m.page}.vs-`));
    if (m.key === 'marks./many.marks') return s.checks.filter((c) => c.key === 'marks.extra');
    return s.checks.filter((c) => c.key.startsWith(`${m.key}:`));
  };
  for (const m of s.measures) {
    let ratio = '';
    if (m.key.startsWith('capture.')) {
      const b = base(m);
      if (b)
        ratio = b === m ? '1.00× (baseline)' : `${fmtRatio(m.summary.median / b.summary.median)} bare CDP`;
    } else if (m.key.startsWith('click.') && !m.key.endsWith('.trueclick')) {
      const t = tcClick(m);
      if (t) ratio = `${fmtRatio(m.summary.median / t.summary.median)} trueclick`;
    }
    // Sections without a baseline of their own say their figures in the note (p99, memory, counts).
    if (!ratio && m.note && !m.key.startsWith('capture.')) ratio = m.note;
    const checks = checksFor(m);
    const firstCheck = checks[0];
    rows.push([
      m.thing,
      m.page ?? '',
      m.image ?? '',
      fmtMs(m.summary.median),
      fmtMs(m.summary.p90),
      String(m.summary.n),
      firstCheck ? firstCheck.measured : ratio,
      firstCheck ? firstCheck.target : '',
      firstCheck ? met(firstCheck.met) : '',
    ]);
    for (const c of checks.slice(1)) rows.push(['  ↳', '', '', '', '', '', c.measured, c.target, met(c.met)]);
  }
  return {
    title: 'Speed (ms, medians and p90 of the measured runs; one run, interleaved)',
    head: ['thing', 'page', 'image', 'median', 'p90', 'n', 'ratio', 'target (SPEC S7)', 'met'],
    rows,
    right: [3, 4, 5],
  };
}

function gapTable(gaps: GapRow[]): Table {
  return {
    title:
      'Guard exposure: page-clock ms from the guard armed (right after the hit-test) to the first trusted event',
    head: ['thing', 'n', 'p50', 'p90', 'p99', 'max'],
    rows: gaps.map((g) => [
      g.thing,
      String(g.summary.n),
      fmtMs(g.summary.median),
      fmtMs(g.summary.p90),
      fmtMs(g.summary.p99),
      fmtMs(g.summary.max),
    ]),
    right: [1, 2, 3, 4, 5],
  };
}

const k = (n: number | undefined) => (n === undefined ? '' : n.toLocaleString('en-US'));

/** What the model reads of each server's tools on every step, in total and per tool. */
function listTables(rows: ToolListRow[]): Table[] {
  const totals = rows.filter((r) => !r.tool);
  const tools = rows.filter((r) => r.tool);
  return [
    {
      title:
        'Tool definitions: what the model reads on every step (name, description, input schema) and the whole tools/list; tokens: o200k_base',
      head: ['server', 'tools', 'model reads: chars', 'tokens', 'whole list: chars', 'tokens'],
      rows: totals.map((r) => [
        r.server,
        String(r.tools),
        k(r.modelChars),
        k(r.modelTokens),
        k(r.wholeChars),
        k(r.wholeTokens),
      ]),
      right: [1, 2, 3, 4, 5],
    },
    {
      title: 'Tool definitions, per tool (what the model reads)',
      head: ['server', 'tool', 'chars', 'tokens'],
      rows: tools.map((r) => [r.server, r.tool ?? '', k(r.modelChars), k(r.modelTokens)]),
      right: [2, 3],
    },
  ];
}

function countTable(counts: CountRow[]): Table {
  return {
    title: 'Guards: wrong-row actions (counted from the page’s own record of trusted events)',
    head: ['thing', 'runs', 'wrong row', 'target (SPEC S7)', 'met', 'detail'],
    rows: counts.map((c) => [c.thing, String(c.runs), String(c.wrong), c.target, met(c.met), c.detail]),
    right: [1, 2],
  };
}

/** The scripted agent's tasks per tool (bench/agent.ts), each judged by the server's action log. */
function agentTable(rows: AgentRow[], share: number | undefined): Table {
  const moves =
    share === undefined
      ? 'while the page may move'
      : `the page moving in ${Math.round(share * 100)} % of them`;
  return {
    title: `Agent: a scripted agent on living pages (look, think ≈1.2 s, ${moves}, click; again on a refusal, up to 5 tries), judged by the server’s action log`,
    head: [
      'tool',
      'tasks',
      'done',
      'another record',
      'silent',
      'gave up',
      'tries/task',
      's/task (p50)',
      'note',
    ],
    rows: rows.map((r) => [
      r.tool,
      String(r.tasks),
      String(r.done),
      String(r.other),
      String(r.silent),
      String(r.gaveUp),
      r.triesMean.toFixed(2),
      Number.isFinite(r.secondsMedian) ? r.secondsMedian.toFixed(1) : '—',
      r.note,
    ]),
    right: [1, 2, 3, 4, 5, 6, 7],
  };
}

export function tables(s: Section): Table[] {
  const t: Table[] = [];
  if (s.measures.length > 0) t.push(speedTable(s));
  if (s.gaps.length > 0) t.push(gapTable(s.gaps));
  if (s.counts.length > 0) t.push(countTable(s.counts));
  // The agent rows ride in raw (results.ts has no place of their own for them).
  const agent = s.raw?.agent as { rows?: AgentRow[]; moveShare?: number } | undefined;
  if (agent?.rows?.length) {
    t.push(agentTable(agent.rows, agent.moveShare));
    const checks = s.checks.filter((c) => c.key.startsWith('agent.'));
    if (checks.length > 0)
      t.push({
        title:
          'Agent: the targets (issue 33 for the follow lane, judged in the world moving in 80 % of the thinks)',
        head: ['what', 'measured', 'target', 'met'],
        rows: checks.map((c) => [
          c.thing,
          c.measured,
          c.target,
          c.note ? `${met(c.met)} (${c.note})` : met(c.met),
        ]),
        right: [],
      });
  }
  if (s.lists?.length) t.push(...listTables(s.lists));
  return t;
}

/** Plain text, columns padded; the last column may run long. */
export function renderText(t: Table): string {
  const width = t.head.map((h, i) => Math.max(h.length, ...t.rows.map((r) => (r[i] ?? '').length)));
  const line = (r: Row) =>
    r
      .map((c, i) =>
        i === r.length - 1
          ? c
          : t.right.includes(i)
            ? c.padStart(width[i] as number)
            : c.padEnd(width[i] as number),
      )
      .join('  ')
      .trimEnd();
  const rule = width.map((w) => '─'.repeat(w)).join('  ');
  return [t.title, line(t.head), rule, ...t.rows.map(line)].join('\n');
}

export function renderMarkdown(t: Table): string {
  const esc = (c: string) => c.replace(/\|/g, '\\|');
  return [
    `### ${t.title}`,
    '',
    `| ${t.head.map(esc).join(' | ')} |`,
    `| ${t.head.map((_, i) => (t.right.includes(i) ? '---:' : '---')).join(' | ')} |`,
    ...t.rows.map((r) => `| ${r.map(esc).join(' | ')} |`),
  ].join('\n');
}

export function missed(s: Section): string[] {
  const out: string[] = [];
  for (const c of s.checks) if (c.met === false) out.push(`${c.thing}: ${c.measured}, target ${c.target}`);
  for (const c of s.counts)
    if (c.met === false)
      out.push(`${c.thing}: ${c.wrong} wrong of ${c.runs} (${c.detail}), target ${c.target}`);
  return out;
}

const NOTES = [
  'How to read it:',
  '',
  '- Timed sections load the fixture pages from a copy of the fixture server whose `hit.js` does not POST each click to `/__hit` (bench/pages.ts): Playwright MCP waits for requests a click started (500 ms settle, up to 5 s for responses a keepalive fetch never reports finished, 500 ms again), which made its click about 6 s on the beaconing pages. Race and stale use the real fixture server, whose hits they count.',
  '- trueclick runs as `trueclick serve --device-scale-factor 2` over stdio; its screenshot is captured at model size (clip + scale, 1568 px / 1.15 MP fit) with the frame and DOM snapshot; the bare CDP baseline is one `Page.captureScreenshot` png at 2560×1600 over a playwright-core CDPSession that set the emulation.',
  '- Playwright MCP runs with its default 500 ms settle wait after input; chrome-devtools-mcp with `--experimentalVision` and DPR 2 from `emulate`. Both clicks take CSS px and were sent the CSS point of the target.',
  '- Race: every click has its own (x, y), so the page record (pointerdown/click with clientX/Y) tells which attempt an event belongs to. trueclick clicks by CSS point without a frame (the check and the in-flight guard only); the awaited check reads the row under the point and then dispatches; naive reads the row, captures a screenshot, then clicks.',
  '- Stale: each run loads `/tickets?resort=310&toast=520`, takes a screenshot, waits 900 ms and clicks slot (run mod 8)\u2019s Delete; the intended ticket is the one the screenshot showed there. Runs go in parallel lanes (one trueclick server and one naive tab each).',
  '- Agent: per task the agent means one record (seeded), loads the page, takes a screenshot through the tool, reads that record\u2019s control off the page\u2019s layout, thinks (lognormal, median 1.2 s, \u03c3 0.4) and clicks its centre \u00b1 2 px (seeded, kept inside the control). In a share of the thinks (`--agent-move-share`, 0.5 by default; seeded per page, task and try: the same world for each tool) the page runs its own re-sort or prepend. trueclick passes the screenshot\u2019s frame, once refusing a moved record and once with `follow: true` (the record seen, where it is now; issue 33\u2019s targets for it are checked in the world moving in 80 % of the thinks, 40 tasks: \u2265 38 done, 0 on another record, \u2264 1.5 tries per task); any verdict but OK (and a peer\u2019s error) means another look, think and click, up to 5. Done / another record / silent (the tool said OK, the server recorded nothing) / gave up come from the server\u2019s action log. The four lanes run side by side, each in its own browser; trueclick as the library session its MCP tools call.',
  '- Approval: library sessions with `approve` on one shared Chromium. The re-read is `approval.yesToPressMs` of Delete presses approved at once on a still `/tickets`, beside the whole guarded click on the toast\u2019s Dismiss (not asked about), alternating in one session. The soak (`--approval-runs` runs, 10 sessions at once) aims at a row\u2019s Delete from the page\u2019s layout after the screenshot; the person answers in 2\u201330 s (seeded) and the queue re-sorts meanwhile in half the runs; what was deleted comes from the page\u2019s hit record.',
].join('\n');

export function markdownReport(s: Section, machine: Machine, command: string): string {
  const miss = missed(s);
  const unchecked = s.checks.filter((c) => c.met === null).map((c) => `${c.thing}: ${c.measured}`);
  return [
    '# trueclick benchmark results',
    '',
    `Written by \`${command}\` (bench/run.ts). ${machine.date}.`,
    '',
    `Machine: ${machine.os}, ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGb} GB memory, ${machine.chromium}, Node ${machine.node}; load average ${machine.loadStart} at the start, ${machine.loadEnd} at the end.`,
    `Every timing is taken in this one run, round by round (each round calls every subject once, order rotating), at devicePixelRatio 2 in a 1280×800 viewport on the local fixture pages; peers use the same Debian Chromium. Medians and p90 of ${machine.runs} measured runs after ${machine.warmup} warm-up runs. This is a 2-core machine shared with other work: absolute times are noisy; the ratios, taken in the same run, are what the targets compare.`,
    '',
    ...tables(s).flatMap((t) => [renderMarkdown(t), '']),
    NOTES,
    '',
    miss.length > 0
      ? `**Missed targets (${miss.length}):**\n\n${miss.map((m) => `- ${m}`).join('\n')}\n`
      : '**Every checked target was met.**\n',
    unchecked.length > 0 ? `Not checked: ${unchecked.join('; ')}.\n` : '',
    s.warnings.length > 0 ? `Warnings:\n\n${s.warnings.map((w) => `- ${w}`).join('\n')}\n` : '',
  ].join('\n');
}
