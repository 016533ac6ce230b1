// Every refusal in the geometry layer is a GeometryError: callers (the actions layer, the MCP tools, the CLI)
// show `message` to an agent, so it must say what was wrong and what to pass instead; `code` is for programs.

/** Stable codes of the geometry layer's refusals, for programs; the message says the same to an agent. */
export type GeometryErrorCode =
  | 'BAD_REQUEST'
  | 'NOT_A_NUMBER'
  | 'NOT_FINITE'
  | 'NEGATIVE'
  | 'OUT_OF_RANGE'
  | 'TWO_TARGETS'
  | 'NO_TARGET'
  | 'INCOMPLETE_POINT'
  | 'BOX_LENGTH'
  | 'BOX_INVERTED'
  | 'BOX_EMPTY'
  | 'LOOKS_NORMALIZED'
  | 'UNKNOWN_PRESET'
  | 'UNKNOWN_OPTION'
  | 'SPACE_MISMATCH'
  | 'BAD_SHOWN_SIZE'
  | 'FRAME_REQUIRED'
  | 'BAD_FRAME'
  | 'WINDOW_OFFSET_REQUIRED'
  | 'MODEL_REQUIRED'
  | 'PARSE_NO_TARGET'
  | 'PARSE_AMBIGUOUS'
  | 'PARSE_WRONG_FAMILY'
  | 'PARSE_BAD_ARITY'
  | 'BAD_SIZE'
  | 'ASPECT_TOO_EXTREME'
  | 'INSUFFICIENT_SAMPLES'
  | 'IMAGE_UNKNOWN_FORMAT'
  | 'IMAGE_TRUNCATED'
  | 'IMAGE_BAD_HEADER'
  | 'DIAGNOSE_INPUT';

/**
 * What kind of failure an error is, so an agent knows whether to change its input (`bad_input`), answer
 * what the page holds open first (`blocked`: a dialog, a file chooser), start the browser or tab again
 * (`browser_gone`), start a new MCP browser session (`session_gone`: its handle names a session this server
 * does not hold), wait and retry (`timeout`) or report a defect (`internal`).
 */
export type ErrorKind = 'bad_input' | 'blocked' | 'browser_gone' | 'session_gone' | 'timeout' | 'internal';

/**
 * The one base of every error trueclick shows an agent (geometry, native action formats, actions, browser):
 * a stable `code` for programs, what was wrong (`problem`) and what to do instead (`hint`), the request field
 * it is about, and its kind.
 */
export class TrueclickError extends Error {
  /** What was wrong: the first half of `message`. */
  readonly problem: string;
  /** What to do instead: the second half of `message`, kept apart for UIs that show it separately. */
  readonly hint: string;
  /** The request field the problem is in, when there is one (e.g. 'box', 'units', 'model_output'). */
  readonly field: string | undefined;

  constructor(
    readonly code: string,
    problem: string,
    hint: string,
    field?: string,
    readonly kind: ErrorKind = 'bad_input',
  ) {
    super(`${problem} ${hint}`);
    this.name = 'TrueclickError';
    this.problem = problem;
    this.hint = hint;
    this.field = field;
  }
}

/**
 * A refusal of the geometry layer: a coordinate, convention, frame, model answer or image it will not guess
 * about, with what was wrong and what to pass instead. Always kind 'bad_input'.
 */
export class GeometryError extends TrueclickError {
  declare readonly code: GeometryErrorCode;

  constructor(code: GeometryErrorCode, problem: string, hint: string, field?: string) {
    super(code, problem, hint, field);
    this.name = 'GeometryError';
  }
}

/** Short, stable rendering of an arbitrary input value for error messages (never throws, never huge). */
export function show(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : String(value);
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (Array.isArray(value))
    return `[${value.slice(0, 8).map(show).join(', ')}${value.length > 8 ? ', ...' : ''}]`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'object') return 'an object';
  return typeof value;
}
