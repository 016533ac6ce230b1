/**
 * A scripted agent on the living corpus, through trueclick, Playwright MCP and chrome-devtools-mcp: what an
 * agent gets done when the page moves while it thinks (issue 32 item 5).
 * Each task means one record (fixed per task, e.g. job JOB-4103). The agent loads the page, then per try:
 * takes a screenshot through the tool, reads where that record's control is off the page's own layout at
 * that moment, thinks (lognormal, median 1.2 s), and clicks there with a few px of aim noise. Meanwhile the
 * page may run its own move command (re-sort, prepend) at a seeded moment inside the think time, and it
 * ticks by itself anyway. A refusal (any verdict but OK, or a tool error) sends the agent round again, up
 * to 5 tries. Whether a task was done comes only from the fixture server's action log.
 * The world is seeded per (page, task, try), not drawn from one stream, so the three tools face the same
 * world though they take different numbers of tries. The tools run side by side, each in its own browser:
 * the think times dominate, and one after another they would take three times as long.
 */
import type { Action } from '../fixtures/realweb/actions.js';
import type { FixtureServer } from '../fixtures/server.js';
import {
  type Box,
  devtoolsTool,
  type Point,
  playwrightTool,
  type Tool,
  trueclickTool,
} from './agent-tools.js';
import { VIEWPORT } from './cdp.js';
import type { Ctx } from './context.js';
import { emptySection, type Section } from './results.js';
import { median, sleep } from './stats.js';

const MAX_TRIES = 5;
const THINK_MEDIAN_MS = 1200;
const THINK_SIGMA = 0.4;
/** Chance that the page runs a move command during one think. */
const MOVE_P = 0.5;
const AIM_SD_PX = 2;

interface AgentPage {
  page: string;
  query?: Record<string, string | number>;
  /** The row elements (searched through open shadow roots). */
  rows: string;
  /** The control in a row; its link's `id` parameter names the record, as the server records it. */
  target: string;
  act: string;
  /** The page's own commands that move the rows (window.rw). */
  moves: string[];
  /** The meant record is one of the first this many rows at load (prepends must not push it off-screen). */
  among: number;
}

const PAGES: AgentPage[] = [
  { page: 'jobs', rows: '.job', target: 'a.cancel', act: 'cancel', moves: ['resort', 'prepend'], among: 6 },
  {
    page: 'inbox',
    query: { avatarDelay: 300 },
    rows: '.inbox-row',
    target: 'a.open',
    act: 'open',
    moves: ['resort'],
    among: 10,
  },
  { page: 'people', rows: '.person', target: 'a.follow', act: 'unfollow', moves: ['resort'], among: 10 },
];

/** One try of a task: what the agent saw, what the world did meanwhile, what the tool answered. */
interface Try {
  box: Box;
  point: Point;
  thinkMs: number;
  /** The move command the page ran during the think, if any. */
  moved: string | null;
  answer: string;
  clickMs: number;
}

interface Task {
  tool: string;
  page: string;
  task: number;
  run: string;
  meant: string;
  tries: Try[];
  /** From the first screenshot to the last click's answer. */
  ms: number;
  error?: string;
  outcome?: Outcome;
  actions?: Array<{ do: string | null; id: string | null }>;
}

type Outcome = 'done' | 'other' | 'silent' | 'gaveUp' | 'error';

/** One tool's line in the agent table (bench/table.ts). */
export interface AgentRow {
  tool: string;
  tasks: number;
  done: number;
  /** The server recorded an action on another record (or another action). */
  other: number;
  /** The tool answered OK and the server recorded nothing. */
  silent: number;
  gaveUp: number;
  triesMean: number;
  secondsMedian: number;
  note: string;
}

/** A PRNG seeded by a name (FNV-1a into mulberry32): the same name gives every tool the same draws. */
function prng(name: string): () => number {
  let s = 2166136261;
  for (let i = 0; i < name.length; i++) s = Math.imul(s ^ name.charCodeAt(i), 16777619);
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());

/** The world and the agent for one try. Every draw is made whether used or not, so the stream is fixed. */
interface Plan {
  thinkMs: number;
  move: string | null;
  /** When the move runs, ms after the agent read the page. */
  moveInMs: number;
  aim: Point;
}

function planOf(p: AgentPage, task: number, attempt: number): Plan {
  const r = prng(`agent:${p.page}:${task}:${attempt}`);
  const thinkMs = THINK_MEDIAN_MS * Math.exp(THINK_SIGMA * normal(r));
  const moves = r() < MOVE_P;
  const move = p.moves[Math.floor(r() * p.moves.length)] ?? null;
  const moveInMs = (0.1 + 0.8 * r()) * thinkMs;
  const aim = { x: AIM_SD_PX * normal(r), y: AIM_SD_PX * normal(r) };
  return { thinkMs, move: moves ? move : null, moveInMs, aim };
}

function meantOf(p: AgentPage, task: number, keys: Array<string | null>): string {
  const r = prng(`agent:${p.page}:${task}`);
  const key = keys[Math.floor(r() * Math.min(p.among, keys.length))];
  if (!key) throw new Error(`/rw/${p.page}: no record to mean (rows: ${keys.join(', ')})`);
  return key;
}

/** The aim point: the control's centre plus noise, kept 1 px inside the control as it was seen. */
function aimAt(b: Box, aim: Point): Point {
  const clip = (v: number, half: number) => Math.max(-half + 1, Math.min(half - 1, v));
  return {
    x: b.x + b.width / 2 + clip(aim.x, b.width / 2),
    y: b.y + b.height / 2 + clip(aim.y, b.height / 2),
  };
}

interface Seen {
  ready: boolean;
  keys: Array<string | null>;
  box: Box | null;
}

/**
 * Runs in the page (its source goes through the peers' evaluate tools, so it closes over nothing): every
 * row's record, the meant record's control box, and the move, set on the page's own clock so it runs at
 * the same moment after the read whatever the tool's latency.
 */
function readPage(a: {
  rows: string;
  target: string;
  key: string | null;
  move: string | null;
  inMs: number;
}) {
  const rows: Element[] = [];
  const walk = (root: Document | ShadowRoot) => {
    rows.push(...Array.from(root.querySelectorAll(a.rows)));
    for (const el of Array.from(root.querySelectorAll('*'))) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  const keyOf = (row: Element) => {
    const t = row.querySelector(a.target);
    const href = (t as HTMLAnchorElement | null)?.href || t?.getAttribute('href');
    return href ? new URL(href, location.href).searchParams.get('id') : null;
  };
  const r = rows
    .find((row) => keyOf(row) === a.key)
    ?.querySelector(a.target)
    ?.getBoundingClientRect();
  const rw = (window as unknown as { rw?: Record<string, unknown> & { ready?: boolean } }).rw;
  const move = a.move;
  if (rw && move) setTimeout(() => (rw as Record<string, () => unknown>)[move]?.(), a.inMs);
  return {
    ready: rw?.ready === true,
    keys: rows.map(keyOf),
    box: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null,
  };
}

function readSource(p: AgentPage, key: string | null, plan?: Plan): string {
  const args = { rows: p.rows, target: p.target, key, move: plan?.move ?? null, inMs: plan?.moveInMs ?? 0 };
  return `() => (${readPage.toString()})(${JSON.stringify(args)})`;
}

async function waitReady(tool: Tool, p: AgentPage): Promise<Seen> {
  const until = Date.now() + 20_000;
  for (;;) {
    const seen = await tool.run<Seen>(readSource(p, null));
    if (seen.ready && seen.keys.length >= Math.min(p.among, 3)) return seen;
    if (Date.now() > until) throw new Error(`/rw/${p.page} not ready after 20 s`);
    await sleep(100);
  }
}

const inView = (q: Point) => q.x >= 0 && q.y >= 0 && q.x < VIEWPORT.width && q.y < VIEWPORT.height;

async function doTask(tool: Tool, srv: FixtureServer, p: AgentPage, n: number): Promise<Task> {
  const run = `agent-${tool.name.replace(/\W+/g, '-')}-${p.page}-${n}`;
  const task: Task = { tool: tool.name, page: p.page, task: n, run, meant: '', tries: [], ms: 0 };
  try {
    await tool.open(srv.url(`/rw/${p.page}`, { ...p.query, run }));
    task.meant = meantOf(p, n, (await waitReady(tool, p)).keys);
    const t0 = performance.now();
    for (let k = 0; k < MAX_TRIES; k++) {
      const plan = planOf(p, n, k);
      const shot = await tool.look();
      const seen = await tool.run<Seen>(readSource(p, task.meant, plan));
      if (!seen.box) throw new Error(`${task.meant} not on /rw/${p.page} (rows: ${seen.keys.join(', ')})`);
      const point = aimAt(seen.box, plan.aim);
      if (!inView(point)) throw new Error(`${task.meant} is out of view at (${point.x}, ${point.y})`);
      await sleep(plan.thinkMs);
      const c0 = performance.now();
      const answer = await tool.click(shot, point);
      const clickMs = performance.now() - c0;
      task.tries.push({ box: seen.box, point, thinkMs: plan.thinkMs, moved: plan.move, answer, clickMs });
      if (answer === 'OK') break;
    }
    task.ms = performance.now() - t0;
  } catch (err) {
    task.error = (err as Error).message.split('\n')[0] ?? String(err);
  }
  return task;
}

/** The server's log decides; the tool's answer only tells a silent click from a give-up. */
function outcomeOf(t: Task, p: AgentPage, acts: Action[]): Outcome {
  if (acts.some((a) => a.do !== p.act || a.id !== t.meant)) return 'other';
  if (acts.length > 0) return 'done';
  if (t.error) return 'error';
  return t.tries.at(-1)?.answer === 'OK' ? 'silent' : 'gaveUp';
}

async function runTool(ctx: Ctx, tool: Tool, per: number): Promise<Task[]> {
  const tasks: Task[] = [];
  for (const p of PAGES) {
    for (let n = 0; n < per; n++) {
      const t = await doTask(tool, ctx.fixture, p, n);
      if (t.error) ctx.warn(`agent: ${tool.name} /rw/${p.page} task ${n}: ${t.error}`);
      tasks.push(t);
    }
    ctx.log(`agent: ${tool.name} /rw/${p.page} done`);
  }
  return tasks;
}

function rowOf(tool: string, tasks: Task[]): AgentRow {
  const count = (o: Outcome) => tasks.filter((t) => t.outcome === o).length;
  const tries = tasks.reduce((s, t) => s + t.tries.length, 0);
  const looks = tasks.flatMap((t) => t.tries);
  const errors = count('error');
  const notes = [`the page moved during ${looks.filter((x) => x.moved).length} of ${looks.length} thinks`];
  if (errors > 0) notes.push(`${errors} tasks broke off (see warnings)`);
  const clickErrors = looks.filter((x) => x.answer.startsWith('error')).length;
  if (clickErrors > 0) notes.push(`${clickErrors} clicks answered with an error`);
  return {
    tool,
    tasks: tasks.length,
    done: count('done'),
    other: count('other'),
    silent: count('silent'),
    gaveUp: count('gaveUp'),
    triesMean: tries / Math.max(1, tasks.length),
    secondsMedian: median(tasks.filter((t) => !t.error).map((t) => t.ms)) / 1000,
    note: notes.join('; '),
  };
}

export async function measureAgent(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const per = ctx.opts.agentTasks;
  const names = ['trueclick', 'Playwright MCP', 'chrome-devtools-mcp'];
  // The peers start in parallel with trueclick: each is a browser and an MCP server of its own.
  const tools = await Promise.all([trueclickTool(), playwrightTool(ctx), devtoolsTool(ctx)]);
  ctx.log(
    `agent: ${per} tasks on each of ${PAGES.map((p) => `/rw/${p.page}`).join(', ')} per tool, the tools side by side`,
  );
  let results: Array<Task[] | null>;
  try {
    results = await Promise.all(tools.map((t) => (t ? runTool(ctx, t, per) : null)));
  } finally {
    await Promise.all(tools.map((t) => t?.close()));
  }
  // A click the tool answered for may still be on its way to the server.
  await sleep(1000);
  const rows: AgentRow[] = [];
  for (const [i, tasks] of results.entries()) {
    const tool = names[i] as string;
    if (!tasks) {
      rows.push({ ...rowOf(tool, []), note: 'did not start (see warnings)' });
      continue;
    }
    for (const t of tasks) {
      const p = PAGES.find((x) => x.page === t.page) as AgentPage;
      const acts = ctx.fixture.actions({ run: t.run });
      t.outcome = outcomeOf(t, p, acts);
      t.actions = acts.map((a) => ({ do: a.do, id: a.id }));
    }
    rows.push(rowOf(tool, tasks));
  }
  const tc = rows[0] as AgentRow;
  for (const [k, n, what] of [
    ['other', tc.other, 'done on another record'],
    ['silent', tc.silent, 'silent (answered OK, nothing recorded)'],
  ] as const)
    out.checks.push({
      key: `agent.trueclick.${k}`,
      thing: `agent: trueclick tasks ${what}`,
      measured: `${n} of ${tc.tasks}`,
      value: n,
      target: '0',
      met: n === 0,
    });
  out.raw = { agent: { rows, tasks: results.flat().filter(Boolean) } };
  return out;
}
