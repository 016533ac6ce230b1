/**
 * A scripted agent on the living corpus, through trueclick (refusing a moved record, and following it with
 * `follow: true`: issue 33), Playwright MCP and chrome-devtools-mcp: what an agent gets done when the page
 * moves while it thinks (issue 32 item 5).
 * Each task means one record (fixed per task, e.g. job JOB-4103). The agent loads the page, then per try:
 * takes a screenshot through the tool, reads where that record's control is off the page's own layout at
 * that moment, thinks (lognormal, median 1.2 s), and clicks there with a few px of aim noise. Meanwhile the
 * page may run its own move command (re-sort, prepend) at a seeded moment inside the think time (in a share
 * of the thinks, --agent-move-share: 0.5 by default; issue 33's world is 0.8), and it ticks by itself
 * anyway. A record out of view (prepended away, clipped by its grid) is scrolled to and looked at again. A
 * refusal (any verdict but OK, or a tool error) sends the agent round again, up to 5 tries. Whether a task
 * was done comes only from the fixture server's action log.
 * The world is seeded per (page, task, try), not drawn from one stream, so the four lanes face the same
 * world though they take different numbers of tries. The tools run side by side, each in its own browser:
 * the think times dominate, and one after another they would take four times as long.
 */
import type { Action } from '../fixtures/realweb/actions.js';
import type { FixtureServer } from '../fixtures/server.js';
import {
  type Box,
  devtoolsTool,
  type Point,
  playwrightTool,
  type Reply,
  type Tool,
  trueclickTool,
} from './agent-tools.js';
import { type AgentPage, aimAt, meantOf, PAGES, planOf, readSource, type Seen } from './agent-world.js';
import { VIEWPORT } from './cdp.js';
import type { Ctx } from './context.js';
import { type Check, emptySection, type Section } from './results.js';
import { median, sleep } from './stats.js';

const MAX_TRIES = 5;
/** Issue 33: in a world that moves during 80 % of the looks, the follow lane gets ≥ 38 of 40 tasks done. */
const FOLLOW_WORLD = 0.8;
const FOLLOW_DONE = 38 / 40;
const FOLLOW_TRIES = 1.5;

/** One try of a task: what the agent saw, what the world did meanwhile, what the tool answered. */
interface Try {
  box: Box;
  point: Point;
  thinkMs: number;
  /** The move command the page ran during the think, if any. */
  moved: string | null;
  answer: string;
  /** trueclick's follow lane: where the record was followed to, or why it was not. */
  followed?: Reply['followed'];
  notFollowed?: Reply['notFollowed'];
  clickMs: number;
}

interface Task {
  tool: string;
  page: string;
  task: number;
  run: string;
  meant: string;
  tries: Try[];
  /** Scrolls the agent took to bring its record into view (each followed by a new look). */
  scrolls: number;
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

/** Scrolls an agent may take to bring its record into view before one click (it scrolls, then looks again). */
const MAX_SCROLLS = 2;

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

async function doTask(
  tool: Tool,
  srv: FixtureServer,
  p: AgentPage,
  n: number,
  moveShare: number,
): Promise<Task> {
  const run = `agent-${tool.name.replace(/\W+/g, '-')}-${p.page}-${n}`;
  const task: Task = { tool: tool.name, page: p.page, task: n, run, meant: '', tries: [], scrolls: 0, ms: 0 };
  try {
    await tool.open(srv.url(`/rw/${p.page}`, { ...p.query, run }));
    task.meant = meantOf(p, n, (await waitReady(tool, p)).keys);
    const t0 = performance.now();
    for (let k = 0; k < MAX_TRIES; k++) {
      const plan = planOf(p, n, k, moveShare);
      let shot = await tool.look();
      let seen = await tool.run<Seen>(readSource(p, task.meant, plan));
      // Out of view (pushed down by prepends, clipped by its grid after a re-sort): the agent scrolls to it
      // and looks again, as it would on a screenshot that does not show it.
      for (let s = 0; seen.box && !seen.shown && s < MAX_SCROLLS; s++) {
        await tool.run<Seen>(readSource(p, task.meant, undefined, true));
        task.scrolls++;
        shot = await tool.look();
        seen = await tool.run<Seen>(readSource(p, task.meant, plan));
      }
      if (!seen.box) throw new Error(`${task.meant} not on /rw/${p.page} (rows: ${seen.keys.join(', ')})`);
      if (!seen.shown)
        throw new Error(`${task.meant} not shown on /rw/${p.page} after ${MAX_SCROLLS} scrolls`);
      const point = aimAt(seen.box, plan.aim);
      if (!inView(point)) throw new Error(`${task.meant} is out of view at (${point.x}, ${point.y})`);
      await sleep(plan.thinkMs);
      const c0 = performance.now();
      const { answer, ...follow } = await tool.click(shot, point);
      const clickMs = performance.now() - c0;
      task.tries.push({
        box: seen.box,
        point,
        thinkMs: plan.thinkMs,
        moved: plan.move,
        answer,
        ...follow,
        clickMs,
      });
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
      const t = await doTask(tool, ctx.fixture, p, n, ctx.opts.agentMoveShare);
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
  const scrolls = tasks.reduce((s, t) => s + t.scrolls, 0);
  if (scrolls > 0) notes.push(`${scrolls} scrolls to bring the record into view`);
  const followed = looks.filter((x) => x.followed).length;
  const notFollowed = looks.filter((x) => x.notFollowed).length;
  if (followed + notFollowed > 0) notes.push(`followed ${followed}, not followed ${notFollowed}`);
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
  const share = ctx.opts.agentMoveShare;
  // --quick checks trueclick's lanes only: the peers' lanes are the comparison the README states, and two more
  // browsers beside the other count sections made servers time out at start on two cores.
  const peers = !ctx.opts.quick;
  const names = [
    'trueclick',
    'trueclick (follow)',
    ...(peers ? ['Playwright MCP', 'chrome-devtools-mcp'] : []),
  ];
  // The peers start in parallel with trueclick: each is a browser and an MCP server of its own.
  const tools = await Promise.all([
    trueclickTool(),
    trueclickTool({ follow: true }),
    ...(peers ? [playwrightTool(ctx), devtoolsTool(ctx)] : []),
  ]);
  ctx.log(
    `agent: ${per} tasks on each of ${PAGES.map((p) => `/rw/${p.page}`).join(', ')} per tool, the page moving in ${Math.round(share * 100)} % of the thinks, the tools side by side${peers ? '' : ' (--quick: the peers not run)'}`,
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
  const world = `the page moving in ${Math.round(share * 100)} % of the thinks`;
  for (const tc of rows.slice(0, 2)) {
    if (tc.tasks === 0) continue;
    const lane = tc.tool === 'trueclick' ? 'trueclick' : 'trueclick.follow';
    for (const [k, n, what] of [
      ['other', tc.other, 'done on another record'],
      ['silent', tc.silent, 'silent (answered OK, nothing recorded)'],
    ] as const)
      out.checks.push({
        key: `agent.${lane}.${k}`,
        thing: `agent: ${tc.tool} tasks ${what}, ${world}`,
        measured: `${n} of ${tc.tasks}`,
        value: n,
        target: '0',
        met: n === 0,
      });
  }
  const follow = rows[1] as AgentRow;
  if (follow.tasks > 0) out.checks.push(...followChecks(follow, share));
  const followTasks = results[1] ?? [];
  for (const line of followMisses(followTasks)) ctx.log(`agent: trueclick (follow) ${line}`);
  out.raw = {
    agent: { moveShare: share, rows, tasks: results.flat().filter(Boolean) },
  };
  return out;
}

/**
 * Issue 33's targets for the follow lane, judged only in its world (the page moving in 80 % of the thinks,
 * --agent-move-share 0.8); in another world they are printed and not checked. With other than 40 tasks,
 * "≥ 38 of 40" is the same share: at least 95 % of the tasks, rounded up.
 */
function followChecks(r: AgentRow, share: number): Check[] {
  const judged = Math.abs(share - FOLLOW_WORLD) < 1e-9;
  const pct = Math.round(FOLLOW_WORLD * 100);
  const note = judged
    ? undefined
    : `not checked: the page moved in ${Math.round(share * 100)} % of the thinks, the target is for ${pct} % (--agent-move-share ${FOLLOW_WORLD})`;
  const need = Math.ceil(FOLLOW_DONE * r.tasks - 1e-9);
  const world = `the page moving in ${pct} % of the thinks`;
  return [
    {
      key: 'agent.trueclick.follow.done',
      thing: `agent: trueclick (follow) tasks done, ${world}`,
      measured: `${r.done} of ${r.tasks}`,
      value: r.done / Math.max(1, r.tasks),
      target: `≥ ${need} of ${r.tasks}${r.tasks === 40 ? '' : ' (38 of 40)'}`,
      met: judged ? r.done >= need : null,
      ...(note ? { note } : {}),
    },
    {
      key: 'agent.trueclick.follow.on-other',
      thing: `agent: trueclick (follow) tasks done on another record, ${world}`,
      measured: `${r.other} of ${r.tasks}`,
      value: r.other,
      target: '0',
      met: judged ? r.other === 0 : null,
      ...(note ? { note } : {}),
    },
    {
      key: 'agent.trueclick.follow.tries',
      thing: `agent: trueclick (follow) tries per task, ${world}`,
      measured: r.triesMean.toFixed(2),
      value: r.triesMean,
      target: `≤ ${FOLLOW_TRIES}`,
      met: judged ? r.triesMean <= FOLLOW_TRIES : null,
      ...(note ? { note } : {}),
    },
  ];
}

/**
 * What the follow lane's tasks that were not done in one try met, per page: each refusal's verdict, its
 * notFollowed (which record, why) and the start of its message, for whoever fixes the product.
 */
function followMisses(tasks: Task[]): string[] {
  const out: string[] = [];
  for (const t of tasks) {
    if (t.outcome === 'done' && t.tries.length === 1) continue;
    const head = `/rw/${t.page} task ${t.task} (${t.meant}): ${t.outcome ?? '?'} after ${t.tries.length} tries${t.error ? `, broke off: ${t.error}` : ''}`;
    out.push(head);
    for (const [k, x] of t.tries.entries()) {
      if (x.answer === 'OK' && !x.followed) continue;
      const nf = x.notFollowed ? ` notFollowed ${JSON.stringify(x.notFollowed)}` : '';
      const f = x.followed ? ` followed ${JSON.stringify(x.followed)}` : '';
      out.push(
        `  try ${k + 1} (moved: ${x.moved ?? 'no'}): ${x.answer.slice(0, 240).replace(/\s+/g, ' ')}${nf}${f}`,
      );
    }
  }
  return out;
}
