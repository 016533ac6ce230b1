// What browser_act executes: a model's native action(s), read into family-neutral steps. This layer is pure
// (no browser): it knows each family's field names, key names and units, and keeps every coordinate as the
// model wrote it; the actions layer resolves points through the family's preset against the frame.

import type { PresetName } from '../geometry/index.js';

/** The families whose native action format browser_act executes. */
export type Family = 'anthropic' | 'openai' | 'gemini' | 'ui-tars' | 'qwen';

/**
 * Where in the model's output a value came from, in the family's own words, e.g. 'input.coordinate',
 * 'actions[1].x', 'args.destination_x', "drag(end_point=…)". Errors and results name it.
 */
export type FieldPath = string;

/** A point exactly as the model wrote it, in its family's coordinate space. */
export interface NativePoint {
  x: number;
  y: number;
  /** The field(s) the numbers came from, e.g. 'input.coordinate' or 'args.x/args.y'. */
  field: FieldPath;
}

export type Button = 'left' | 'right' | 'middle' | 'back' | 'forward';
/** Playwright / DOM modifier names. */
export type Modifier = 'Alt' | 'Control' | 'Meta' | 'Shift';

/** How far to scroll, in the unit the family uses; the executor turns it into CSS px. dx > 0 right, dy > 0 down. */
export interface ScrollAmount {
  dx: number;
  dy: number;
  /**
   * wheel_click: mouse-wheel notches (Anthropic scroll_amount; UI-TARS, which gives no amount);
   * image_px: px in the family's coordinate space (OpenAI scroll_x/scroll_y, Qwen pixels);
   * grid: Gemini magnitude, 0–999 of the viewport's side along the scroll;
   * viewport: whole viewports (Gemini scroll_document).
   */
  unit: 'wheel_click' | 'image_px' | 'grid' | 'viewport';
}

interface StepBase {
  /** The action's name as the family wrote it: 'left_click', 'click_at', 'left_double', 'keypress'. */
  name: string;
  /** Where this action sits in what was passed: 'input', 'content[2]', 'actions[1]', 'parts[0]', 'Action 2'. */
  source: string;
  /**
   * Anthropic browser toolset only: the `tab_id` the call names (the tab to act on; for a `tab` step, the tab
   * to switch to or close). Absent: the active tab.
   */
  tabId?: string;
}

export type NativeStep = StepBase &
  (
    | { kind: 'click'; at?: NativePoint; button: Button; count: 1 | 2 | 3; modifiers: Modifier[] }
    | { kind: 'move'; at: NativePoint; modifiers: Modifier[] }
    | { kind: 'mouse_down' | 'mouse_up'; at?: NativePoint; button: 'left' }
    | { kind: 'drag'; from?: NativePoint; to: NativePoint; via: NativePoint[]; modifiers: Modifier[] }
    | { kind: 'scroll'; at?: NativePoint; amount: ScrollAmount; modifiers: Modifier[] }
    | { kind: 'type'; text: string; at?: NativePoint; pressEnter: boolean; clearFirst: boolean }
    /** One chord (all keys down in order, released in reverse), pressed `repeat` times. Playwright key names. */
    | { kind: 'key'; chord: string[]; repeat: number }
    | { kind: 'hold_key'; chord: string[]; seconds: number }
    | { kind: 'key_down' | 'key_up'; key: string }
    | { kind: 'wait'; seconds: number }
    | { kind: 'screenshot' }
    /** A region [from, to] (top-left, bottom-right) to look at closer. */
    | { kind: 'zoom'; from: NativePoint; to: NativePoint }
    | { kind: 'cursor_position' }
    | { kind: 'navigate'; url: string }
    | { kind: 'back' }
    | { kind: 'forward' }
    | { kind: 'reload' }
    | { kind: 'tab'; action: 'list' | 'new' | 'select' | 'close'; index?: number; url?: string }
    /** The model says it is finished or needs the user (finished, terminate, answer, call_user). */
    | { kind: 'done'; status?: 'success' | 'failure' | 'needs_user'; text?: string }
    /** A real action of the family that a browser tool cannot do (open_web_browser, javascript_exec…). */
    | { kind: 'unsupported'; reason: string; hint: string }
  );

export type StepKind = NativeStep['kind'];

export interface NativeBatch {
  family: Family;
  model: PresetName;
  steps: NativeStep[];
  /** What the family wants echoed in its reply. */
  reply: {
    /**
     * Anthropic: the tool_use ids (tool_result blocks answer them), each with the index of the first step its
     * block produced (a browser toolset key sequence makes several steps from one block).
     */
    toolUseIds?: Array<{ id: string; step: number }>;
    /** OpenAI: the computer_call's call_id and its pending safety checks. */
    callId?: string;
    pendingSafetyChecks?: Array<{ id: string; code?: string; message?: string }>;
    /**
     * Gemini: the functions called (one FunctionResponse each, `step` = the first step of the call), and the
     * first safety decision among their args (`require_confirmation` means: ask the user first).
     */
    functionCalls?: Array<{ name: string; step: number; id?: string }>;
    safetyDecision?: { decision: string; explanation?: string };
  };
}
