// The shapes the five agent loops in this folder share: what a user passes a loop and gets back, the notes
// a loop adds to the family's reply (the stand-in model reads the same words), the Target line a model states
// its `expect` in, one verdict per act call, and a CSS point in a model's own coordinates.
// In your project, import from 'trueclick' and 'trueclick/geometry' instead of ../../src.

import {
  conventionFor,
  type FrameGeometry,
  type PresetName,
  toConvention,
} from '../../src/geometry/index.js';
import type { ActResult, DialogInfo, Expect, StepOutcome, TrueclickSession } from '../../src/index.js';

// ─── What the user gives a loop ────────────────────────────────────────────────────────────────────────

/** Something the loop must ask a person: a safety check of the model's provider, or a browser dialog. */
export interface ConfirmRequest {
  kind: 'safety' | 'dialog';
  message: string;
  dialog?: DialogInfo;
}
export type Confirm = (request: ConfirmRequest) => Promise<boolean>;

export interface AgentOptions<Client> {
  session: TrueclickSession;
  task: string;
  /** The family's SDK client (or the scripted stand-in with its call shape). */
  client: Client;
  /** Asked before a flagged action runs and for confirm()/prompt()/beforeunload dialogs; absent: no. */
  confirm?: Confirm;
  maxTurns?: number;
}

/** What a loop reports when it stops. */
export interface AgentSummary {
  family: string;
  model: PresetName;
  /** Model calls made. */
  turns: number;
  /** The verdict of every session.act call, in order (a call re-run in other units counts again). */
  verdicts: string[];
  /** What confirm() was asked, and what it answered. */
  asked: Array<ConfirmRequest & { answer: boolean }>;
  /** The width the loop settled on for reading the model's coordinates, after a FRAME_MISMATCH. */
  shownWidth?: number;
  final: 'done' | 'declined' | 'max_turns' | 'error';
  finalText?: string;
  url: string;
  /** The whole conversation, in the family's own format. */
  messages: unknown[];
}

// ─── The notes a loop adds to the family's reply (the stand-in reads the same words) ─────────────────────

export const NOTHING_DONE = 'Nothing was done';
export const LOOK_FIRST = 'Look at the new screenshot before you retry';
export const REREAD = 'Re-read the screenshot';
export const HINT = /at \((-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\) in your coordinates/;
const TARGET_LINE = /^Target: (\{.*\})\s*$/m;

/** The loop's system prompt asks the model to name what its first pointer action is on, as JSON. */
export const TARGET_INSTRUCTION =
  'Before your actions, write one line `Target: {"role": …, "name": …, "context": …}` naming the element your first click or drag starts on (its role, its label, and the row or card it is in).';

/** The `expect` the model stated in its text (the Target line), if any. */
export function expectFrom(text: string): Expect | undefined {
  const m = TARGET_LINE.exec(text);
  if (!m?.[1]) return undefined;
  try {
    const raw = JSON.parse(m[1]) as Record<string, unknown>;
    const e: Expect = {};
    for (const k of ['text', 'context', 'role', 'name'] as const) {
      const v = raw[k];
      if (typeof v === 'string' && v !== '') e[k] = v;
    }
    return Object.keys(e).length > 0 ? e : undefined;
  } catch {
    return undefined;
  }
}

/** The batch's verdict (trueclick's), and the action it is about when it is not OK. */
export function verdictOf(r: ActResult): { verdict: string; step?: StepOutcome } {
  const step = r.steps.find((s) => s.status === 'refused' || (s.verdict && s.verdict !== 'OK'));
  return step ? { verdict: r.verdict, step } : { verdict: r.verdict };
}

/** A CSS viewport point in the model's coordinates for the frame it saw, read in `shownWidth` if set. */
export function modelPoint(
  css: { x: number; y: number },
  model: PresetName,
  frame: FrameGeometry,
  shownWidth?: number,
): [number, number] {
  const c = conventionFor(
    { model, axis_order: 'xy', ...(shownWidth ? { shown_width: shownWidth } : {}) },
    frame,
  );
  const [x = 0, y = 0] = toConvention(css, c, frame);
  return [Math.round(x), Math.round(y)];
}
