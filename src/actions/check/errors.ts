import { type ErrorKind, TrueclickError } from '../../geometry/index.js';

/** A refusal before anything touched the page: bad input, unknown or outdated frame, closed tab. */
export class ActionError extends TrueclickError {
  constructor(code: string, problem: string, hint: string, field?: string, kind: ErrorKind = 'bad_input') {
    super(code, problem, hint, field, kind);
    this.name = 'ActionError';
  }
}
