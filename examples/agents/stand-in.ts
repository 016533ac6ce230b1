// The scripted stand-in model behind every family's example, and what runs an example by hand. The stand-in
// "sees" through a `Perception` (in a real deployment, the model's vision; here the page answers), writes its
// points in its family's coordinates for the image it was shown (trueclick/geometry's toConvention), and
// reads the notes the loop adds to the family's reply. Each family's file gives it that family's call shape.

import { pathToFileURL } from 'node:url';
import { startFixtureServer } from '../../fixtures/server.js';
import {
  type CssBox,
  conventionFor,
  type FrameGeometry,
  imageSize,
  type PresetName,
  toConvention,
} from '../../src/geometry/index.js';
import { type Expect, TrueclickSession } from '../../src/index.js';
import { type AgentSummary, HINT, LOOK_FIRST, modelPoint, NOTHING_DONE, REREAD } from './loop.js';

/** Something a model can name on a screenshot: a control by role and label in a row, or (for drags) a selector. */
export interface Thing {
  role?: string;
  name?: string;
  /** Text of the row, card or form it is in. */
  within?: string;
  selector?: string;
  /** Aim this many CSS px from its centre. */
  nudge?: { x: number; y: number };
}

export interface View {
  width: number;
  height: number;
  scroll: { x: number; y: number };
  devicePixelRatio: number;
}

/**
 * How the stand-in sees: where a described thing is (CSS viewport px) and the viewport it is in. In a real
 * deployment this is the model's vision; here the page answers (pagePerception).
 */
export interface Perception {
  locate(thing: Thing): Promise<CssBox | null>;
  view(): Promise<View>;
}

/** Perception backed by the page in the session's active tab (Playwright locators). */
export function pagePerception(session: TrueclickSession): Perception {
  return {
    async locate(t) {
      const page = (await session.driver()).page;
      const inner = t.selector
        ? page.locator(t.selector)
        : page.getByRole(t.role as 'button', { name: t.name ?? '', exact: true });
      const loc = t.within
        ? page.locator('*', { hasText: t.within }).filter({ has: inner }).last().locator(inner).first()
        : inner.first();
      // A busy machine (two test files side by side) can take seconds to re-render and settle the locator.
      const b = await loc.boundingBox({ timeout: 5000 }).catch(() => null);
      return b ? { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height } : null;
    },
    async view() {
      const page = (await session.driver()).page;
      return page.evaluate(() => ({
        width: innerWidth,
        height: innerHeight,
        scroll: { x: scrollX, y: scrollY },
        devicePixelRatio,
      }));
    },
  };
}

/** One step of the stand-in's plan (what the scripted model means to do, in order). */
export type PlanStep =
  /** `sensitive`: the provider flags this action (OpenAI pending_safety_checks, Gemini safety_decision). */
  | { do: 'click'; target: Thing; sensitive?: string }
  | { do: 'fill'; target: Thing; text: string }
  | { do: 'drag'; from: Thing; to: Thing };

/** What the stand-in decided, before its family writes it down. Points are in the family's coordinates. */
export type Intent =
  | { kind: 'click'; at: [number, number]; sensitive?: string }
  | { kind: 'fill'; at: [number, number]; text: string }
  | { kind: 'drag'; from: [number, number]; to: [number, number] }
  | { kind: 'done'; text: string };

export interface StandInOptions {
  perceive: Perception;
  plan: PlanStep[];
  /**
   * Wrong units to start with, dropped when the loop says to re-read: the width of the image the stand-in
   * believes it was shown (1024: a client's downscale; 2560: the device-pixel capture), read by its family's
   * resize rule, or as plain pixels of that width with `raw` (a model told the screen is 2560 px wide).
   */
  misreads?: { width: number; raw?: boolean };
  /** Runs while the model "thinks": after it looked at the screenshot, before its answer arrives. */
  think?: (turn: number) => Promise<void>;
}

/**
 * The scripted model behind every family's stand-in. Each call it reads the loop's last notes, looks at the
 * latest screenshot through its perception and answers the next step of its plan: the same step again after
 * "Nothing was done", at the coordinates it was told after a miss, the next one otherwise.
 */
export class StandInBrain {
  private index = 0;
  private answered = false;
  private turn = 0;
  private misreads: StandInOptions['misreads'];

  constructor(
    private readonly model: PresetName,
    private readonly o: StandInOptions,
  ) {
    this.misreads = o.misreads;
  }

  async next(feedback: string, imageBase64: string): Promise<{ intent: Intent; thought: string }> {
    this.turn++;
    if (feedback.includes(REREAD)) this.misreads = undefined;
    const hint = HINT.exec(feedback);
    if (this.answered) {
      const retry = feedback.includes(NOTHING_DONE);
      const look = feedback.includes(LOOK_FIRST);
      // After an uncertain action: done if what it aimed at is gone, else once more.
      const step = this.o.plan[this.index];
      const gone =
        look && step ? !(await this.o.perceive.locate(step.do === 'drag' ? step.from : step.target)) : false;
      if (!(retry || look) || gone) this.index++;
    }
    const step = this.o.plan[this.index];
    if (!step) return { intent: { kind: 'done', text: 'The task is done.' }, thought: 'Everything is done.' };
    const frame = await this.frameOf(imageBase64);
    const point = async (t: Thing): Promise<[number, number]> => {
      const box = await this.o.perceive.locate(t);
      if (!box) throw new Error(`The stand-in cannot see ${JSON.stringify(t)} on the page.`);
      const css = {
        x: (box.left + box.right) / 2 + (t.nudge?.x ?? 0),
        y: (box.top + box.bottom) / 2 + (t.nudge?.y ?? 0),
      };
      const wrong = this.misreads;
      if (!wrong?.raw) return modelPoint(css, this.model, frame, wrong?.width);
      const [x = 0, y = 0] = toConvention(
        css,
        conventionFor({ units: 'px', shown_width: wrong.width }, frame),
        frame,
      );
      return [Math.round(x), Math.round(y)];
    };
    const told = hint ? ([Number(hint[1]), Number(hint[2])] as [number, number]) : undefined;
    let intent: Intent;
    if (step.do === 'drag') {
      intent = { kind: 'drag', from: told ?? (await point(step.from)), to: await point(step.to) };
    } else {
      const at = told ?? (await point(step.target));
      intent =
        step.do === 'click'
          ? { kind: 'click', at, ...(step.sensitive ? { sensitive: step.sensitive } : {}) }
          : { kind: 'fill', at, text: step.text };
    }
    await this.o.think?.(this.turn);
    this.answered = true;
    const thing = step.do === 'drag' ? step.from : step.target;
    const target = expectOf(thing);
    const what = `${step.do} ${thing.name ?? thing.selector ?? 'it'}${thing.within ? ` in ${thing.within}` : ''}`;
    return { intent, thought: `I will ${what}.${target ? `\nTarget: ${JSON.stringify(target)}` : ''}` };
  }

  /** The frame the stand-in reads its image as: the image it was sent over the page's viewport. */
  private async frameOf(imageBase64: string): Promise<FrameGeometry> {
    const v = await this.o.perceive.view();
    return {
      image: imageSize(Buffer.from(imageBase64, 'base64')),
      css: { width: v.width, height: v.height },
      scroll: v.scroll,
      devicePixelRatio: v.devicePixelRatio,
    };
  }
}

function expectOf(t: Thing): Expect | undefined {
  if (!t.role && !t.name) return undefined;
  return {
    ...(t.role ? { role: t.role } : {}),
    ...(t.name ? { name: t.name } : {}),
    ...(t.within ? { context: t.within } : {}),
  };
}

/** The base64 data of a data: URL. */
export const dataOf = (url: string) => url.slice(url.indexOf(',') + 1);

// ─── Running an example by hand ──────────────────────────────────────────────────────────────────────────

/** True when this module is the script node was started with. */
export function isMain(url: string): boolean {
  return process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href;
}

/**
 * Starts the fixture server and a session at devicePixelRatio 2, opens `path`, runs `go` and prints what
 * the loop reported next to what the server recorded.
 */
export async function exampleMain(
  path: string,
  go: (ctx: { session: TrueclickSession; perceive: Perception }) => Promise<AgentSummary>,
): Promise<void> {
  const srv = await startFixtureServer();
  const session = new TrueclickSession({ deviceScaleFactor: 2 });
  try {
    await session.navigate(srv.url(path, { run: 'example' }));
    const page = (await session.driver()).page;
    await page.waitForFunction(() => {
      const rw = (window as unknown as { rw?: { ready?: boolean } }).rw;
      return !rw || rw.ready === true;
    });
    const summary = await go({ session, perceive: pagePerception(session) });
    const { messages: _, ...shown } = summary;
    console.log(JSON.stringify(shown, null, 2));
    console.log(
      'server action log:',
      JSON.stringify(srv.actions({ run: 'example' }).map((a) => [a.do, a.id])),
    );
    const seen = srv.hits({ run: 'example' }).filter((h) => h.type === 'click' || h.type === 'submit');
    console.log('page saw:', JSON.stringify(seen.map((h) => [h.type, h.id, h.extra?.value ?? null])));
  } finally {
    await session.close();
    await srv.close();
  }
}
