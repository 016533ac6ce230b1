/** A refusal before anything touched the page: bad input, unknown or outdated frame, closed tab. */
export class ActionError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ActionError';
  }
}
