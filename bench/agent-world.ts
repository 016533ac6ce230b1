// The agent's world on the living corpus: the pages whose rows move on a command of their own, the seeded
// draws of each try (think time, the move and its moment, aim noise), and the read of a page at the moment
// of a look (run in the page through each tool's evaluate).
import type { Box, Point } from './agent-tools.js';

const THINK_MEDIAN_MS = 1200;
const THINK_SIGMA = 0.4;
const AIM_SD_PX = 2;

export interface AgentPage {
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

/**
 * Eight pages of the corpus whose rows move on a command of their own: Vue rows keyed by index, React rows
 * keyed by id and by index, a Lit app in a shadow root, plain rows re-ordered, Ionic items rewritten in
 * place, AG Grid rows moved by the grid and rewritten in the same row elements.
 */
export const PAGES: AgentPage[] = [
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
  {
    page: 'list',
    rows: '.ticket-row',
    target: 'a.archive',
    act: 'archive',
    moves: ['resort', 'prepend'],
    among: 8,
  },
  {
    page: 'feed',
    query: { late: 300, interval: 400 },
    rows: '.story',
    target: 'a.read',
    act: 'read',
    moves: ['resort'],
    among: 6,
  },
  { page: 'ionic', rows: 'ion-item', target: 'ion-button', act: 'open', moves: ['resort'], among: 6 },
  {
    page: 'grid',
    query: { animate: 0, rows: 20 },
    rows: '.ag-row:has(a.rw-delete)',
    target: 'a.rw-delete',
    act: 'delete',
    moves: ['resort'],
    among: 8,
  },
  {
    page: 'prices',
    query: { sortvia: 'data' },
    rows: '.ag-row:has(a.buy)',
    target: 'a.buy',
    act: 'buy',
    moves: ['resort'],
    among: 8,
  },
];

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
export interface Plan {
  thinkMs: number;
  move: string | null;
  /** When the move runs, ms after the agent read the page. */
  moveInMs: number;
  aim: Point;
}

export function planOf(p: AgentPage, task: number, attempt: number, moveShare: number): Plan {
  const r = prng(`agent:${p.page}:${task}:${attempt}`);
  const thinkMs = THINK_MEDIAN_MS * Math.exp(THINK_SIGMA * normal(r));
  const moves = r() < moveShare;
  const move = p.moves[Math.floor(r() * p.moves.length)] ?? null;
  const moveInMs = (0.1 + 0.8 * r()) * thinkMs;
  const aim = { x: AIM_SD_PX * normal(r), y: AIM_SD_PX * normal(r) };
  return { thinkMs, move: moves ? move : null, moveInMs, aim };
}

export function meantOf(p: AgentPage, task: number, keys: Array<string | null>): string {
  const r = prng(`agent:${p.page}:${task}`);
  const key = keys[Math.floor(r() * Math.min(p.among, keys.length))];
  if (!key) throw new Error(`/rw/${p.page}: no record to mean (rows: ${keys.join(', ')})`);
  return key;
}

/** The aim point: the control's centre plus noise, kept 1 px inside the control as it was seen. */
export function aimAt(b: Box, aim: Point): Point {
  const clip = (v: number, half: number) => Math.max(-half + 1, Math.min(half - 1, v));
  return {
    x: b.x + b.width / 2 + clip(aim.x, b.width / 2),
    y: b.y + b.height / 2 + clip(aim.y, b.height / 2),
  };
}

export interface Seen {
  ready: boolean;
  keys: Array<string | null>;
  box: Box | null;
  /** The control's centre is in the viewport and the page's own hit-test finds it there (not clipped by a
   * scrolling grid or list, not covered): what an agent sees in its screenshot. */
  shown: boolean;
}

/**
 * Runs in the page (its source goes through the peers' evaluate tools, so it closes over nothing): every
 * row's record, the meant record's control box and whether it shows, and the move, set on the page's own
 * clock so it runs at the same moment after the read whatever the tool's latency (only when the control
 * shows: a look that finds it hidden is followed by a scroll, `scroll`, and a new look, whose read sets it).
 */
function readPage(a: {
  rows: string;
  target: string;
  key: string | null;
  move: string | null;
  inMs: number;
  scroll: boolean;
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
  const ctl = rows.find((row) => keyOf(row) === a.key)?.querySelector(a.target);
  const r = ctl?.getBoundingClientRect();
  let shown = false;
  if (ctl && r) {
    const cx = r.x + r.width / 2;
    const cy = r.y + r.height / 2;
    if (cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) {
      let hit: Element | null = document.elementFromPoint(cx, cy);
      for (let i = 0; hit?.shadowRoot && i < 16; i++) {
        const inner: Element | null = hit.shadowRoot.elementFromPoint(cx, cy);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      for (let x: Element | null = hit; x && !shown; ) {
        shown = x === ctl;
        const root = x.getRootNode();
        x = x.parentElement ?? (root instanceof ShadowRoot ? root.host : null);
      }
    }
    if (!shown && a.scroll) ctl.scrollIntoView({ block: 'center' });
  }
  const rw = (window as unknown as { rw?: Record<string, unknown> & { ready?: boolean } }).rw;
  const move = a.move;
  if (shown && rw && move) setTimeout(() => (rw as Record<string, () => unknown>)[move]?.(), a.inMs);
  return {
    ready: rw?.ready === true,
    keys: rows.map(keyOf),
    box: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null,
    shown,
  };
}

export function readSource(p: AgentPage, key: string | null, plan?: Plan, scroll = false): string {
  const args = {
    rows: p.rows,
    target: p.target,
    key,
    move: plan?.move ?? null,
    inMs: plan?.moveInMs ?? 0,
    scroll,
  };
  return `() => (${readPage.toString()})(${JSON.stringify(args)})`;
}
