/**
 * The tools the scripted agent of bench/agent.ts drives, behind one small interface: trueclick (the
 * library session its MCP tools call, so the bench can read the page beside it; refusing, or following a
 * moved record with `follow: true`), Playwright MCP and
 * chrome-devtools-mcp (bench/peers.ts, shared with the other sections through the context).
 */
import { TrueclickSession } from '../src/actions/session/session.js';
import { DPR } from './cdp.js';
import type { Ctx } from './context.js';
import { type McpServer, textOf } from './mcp.js';

export type Point = { x: number; y: number };
export type Box = Point & { width: number; height: number };
type Size = { width: number; height: number };

/** What a click on a screenshot carries back: trueclick's frame; the peers take CSS px and nothing else. */
export type Shot = { frame: string; image: Size; css: Size } | null;

/**
 * What a click answered: 'OK', or the refusal or error the tool answered. trueclick's `follow` lane also
 * says where it followed the record to, or why it did not (the answer's `followed` / `notFollowed`).
 */
export interface Reply {
  answer: string;
  followed?: { from: Point; to: Point; record: string; why: string };
  notFollowed?: { record: string | null; why: string };
}

/** One tool under test, as the agent drives it: the four lanes differ only here. */
export interface Tool {
  name: string;
  open(url: string): Promise<void>;
  look(): Promise<Shot>;
  /** Runs the source of a function of no arguments in the page; its JSON result. */
  run<T>(fn: string): Promise<T>;
  click(shot: Shot, p: Point): Promise<Reply>;
  close(): Promise<void>;
}

/**
 * trueclick as the library session its MCP tools call. `follow`: the click asks to follow the record the
 * frame showed at the point when it moved (issue 33), the lane "trueclick (follow)".
 */
export async function trueclickTool(o: { follow?: boolean } = {}): Promise<Tool> {
  const tc = new TrueclickSession({ deviceScaleFactor: DPR });
  const page = async () => (await tc.driver()).page;
  return {
    name: o.follow ? 'trueclick (follow)' : 'trueclick',
    async open(url) {
      await tc.navigate(url);
    },
    async look() {
      const { frame } = await tc.screenshot();
      return { frame: frame.id, image: frame.geometry.image, css: frame.geometry.css };
    },
    run: async (fn) => (await page()).evaluate(`(${fn})()`),
    async click(shot, q) {
      if (!shot) throw new Error('trueclick clicks on a frame');
      try {
        const r = await tc.click({
          frame: shot.frame,
          x: (q.x * shot.image.width) / shot.css.width,
          y: (q.y * shot.image.height) / shot.css.height,
          ...(o.follow ? { follow: true } : {}),
        });
        return {
          answer: r.verdict === 'OK' ? 'OK' : `${r.verdict}: ${r.message}`,
          ...(r.followed ? { followed: r.followed } : {}),
          ...(r.notFollowed ? { notFollowed: r.notFollowed } : {}),
        };
      } catch (err) {
        return { answer: `error: ${(err as Error).message}` };
      }
    },
    close: () => tc.close(),
  };
}

/** A peer's evaluate answer: Playwright MCP's "### Result" block, chrome-devtools-mcp's json fence. */
function evaluated<T>(text: string, who: string): T {
  const m = /### Result\n([\s\S]*?)(?:\n### |$)/.exec(text) ?? /```json\n([\s\S]*?)\n```/.exec(text);
  if (!m) throw new Error(`${who}: no result in ${text.slice(0, 300)}`);
  return JSON.parse(m[1] as string) as T;
}

/** A peer's click answers once it is done; an error result is the only refusal it has. */
async function peerClick(click: () => Promise<void>): Promise<Reply> {
  try {
    await click();
    return { answer: 'OK' };
  } catch (err) {
    return { answer: `error: ${(err as Error).message}` };
  }
}

export async function playwrightTool(ctx: Ctx): Promise<Tool | null> {
  const pw = await ctx.playwright();
  if (!pw) return null;
  return {
    name: 'Playwright MCP',
    open: (url) => pw.navigate(url),
    async look() {
      await pw.screenshot('css');
      return null;
    },
    run: async (fn) => evaluated(textOf(await pw.mcp.ok('browser_evaluate', { function: fn })), pw.mcp.name),
    click: (_shot, q) => peerClick(() => pw.click(q.x, q.y)),
    // Shared with the other sections: ctx closes it.
    close: async () => {},
  };
}

async function pageIdOf(mcp: McpServer): Promise<number> {
  const pages = textOf(await mcp.ok('list_pages'));
  const m = /^(\d+):.*\[selected\]/m.exec(pages) ?? /^(\d+):/m.exec(pages);
  if (!m) throw new Error(`chrome-devtools-mcp list_pages gave no page id: ${pages.slice(0, 300)}`);
  return Number(m[1]);
}

export async function devtoolsTool(ctx: Ctx): Promise<Tool | null> {
  const dt = await ctx.devtools();
  if (!dt) return null;
  const pageId = await pageIdOf(dt.mcp);
  return {
    name: 'chrome-devtools-mcp',
    open: (url) => dt.navigate(url),
    async look() {
      await dt.screenshot();
      return null;
    },
    // A read needs no wait for the DOM to settle, which a living page never does.
    run: async (fn) =>
      evaluated(
        textOf(await dt.mcp.ok('evaluate_script', { pageId, function: fn, waitForStableDom: false })),
        dt.mcp.name,
      ),
    click: (_shot, q) => peerClick(() => dt.click(q.x, q.y)),
    close: async () => {},
  };
}
