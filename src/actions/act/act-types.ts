// The shapes of browser_act's request and answer, apart from the runner (act.ts) and its steps (act-steps.ts),
// which both name them.
import type { ErrorKind, PresetName } from '../../geometry/index.js';
import type { familyOf, NativeBatch, StepKind } from '../../native/index.js';
import type { Effect } from '../check/effect.js';
import type { Expect } from '../check/expect.js';
import type { ClickReport, ErrorVerdict, Verdict } from '../check/verdicts.js';
import type { Effects } from '../session/page-watch.js';
import type { Screenshot } from '../session/session.js';

/** browser_act: what a computer-use model emitted, executed as it is, against the frame it saw. */
export interface ActRequest {
  /** The frame the model saw (its screenshot): every coordinate is read in it. */
  frame?: string;
  model: PresetName;
  /** The model's action(s): the object (tool_use, computer_call, function call…) or its raw text. */
  action: unknown;
  /** What the model means by its first action on a point (e.g. the row it read): checked like browser_click's. */
  expect?: Expect;
  /** Each point read off the frame follows its record if it moved since (browser_click's `follow`). */
  follow?: boolean;
  /** The client showed the screenshot at another size than trueclick sent it. */
  shown_width?: number;
  shown_height?: number;
  /** OpenAI: the pending safety checks the user acknowledged (their ids). */
  acknowledged_safety_checks?: string[];
  /** Gemini: the user confirmed the action its safety_decision asked about. */
  safety_acknowledged?: boolean;
  /** Take a new screenshot after the batch, as the family expects (default true). */
  screenshot?: boolean;
}

/**
 * How one action of a batch ended: 'done' ran; 'refused' failed its checks or with an error; 'not_run' was
 * skipped because an earlier action failed or the call was cancelled; 'unsupported' is not something
 * trueclick does; 'finished' is the model saying it is done or needs the user.
 */
export type StepStatus = 'done' | 'refused' | 'not_run' | 'unsupported' | 'finished';

/** What became of one action of a `browser_act` batch; `index` is its place in the batch, from 0. */
export interface StepOutcome {
  index: number;
  /** The action's name as the family wrote it, and where it was in the input. */
  name: string;
  source: string;
  kind: StepKind;
  status: StepStatus;
  verdict?: Verdict;
  message: string;
  /** The checked action's report (click, hover, drag, scroll, select…). */
  report?: ClickReport;
  /** What the action opened: a dialog, a tab it followed, a file chooser. */
  effects?: Effects;
  /** What a press did (navigated, opened, changed, none), as browser_click names it. */
  effect?: Effect;
  /** Why it was refused before anything was sent (an outdated frame, a tab that closed…). */
  error?: { code: string; kind: ErrorKind };
}

/**
 * The answer of `browser_act` (`session.act`): one outcome per action the model emitted, the batch's verdict,
 * and the screenshot the family takes as its next input; `familyReply` turns it into that input.
 */
export interface ActResult extends Effects {
  /** OK when every action ran; else the first one's that did not (its verdict, or its error's kind). */
  verdict: Verdict | ErrorVerdict;
  family: NonNullable<ReturnType<typeof familyOf>>;
  model: PresetName;
  frame: string | null;
  steps: StepOutcome[];
  ran: number;
  refused: number;
  notRun: number;
  /** The model said it was finished, or needs the user (finished, terminate, answer, call_user). */
  done?: { status?: string; text?: string };
  /** Frames an action made (a zoom). */
  zooms: Screenshot[];
  /** The screenshot taken after the batch (the family's next input). */
  screenshot?: Screenshot;
  batch: NativeBatch;
}
