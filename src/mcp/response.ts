import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ActionError } from '../actions/errors.js';
import { BrowserError } from '../browser/errors.js';
import { GeometryError } from '../geometry/index.js';

/** Builds tool results: text for the model first, the same facts as structuredContent for programs. */
export class ResponseBuilder {
  private readonly lines: string[] = [];
  private readonly images: Array<{ data: string; mimeType: string }> = [];
  private structured: Record<string, unknown> | undefined;
  private error = false;

  line(text: string): this {
    this.lines.push(text);
    return this;
  }

  image(data: string, mimeType: string): this {
    this.images.push({ data, mimeType });
    return this;
  }

  structuredContent(value: object): this {
    this.structured = value as Record<string, unknown>;
    return this;
  }

  isError(flag = true): this {
    this.error = flag;
    return this;
  }

  build(): CallToolResult {
    const result: CallToolResult = {
      content: [
        ...(this.lines.length ? [{ type: 'text' as const, text: this.lines.join('\n') }] : []),
        ...this.images.map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType })),
      ],
    };
    if (this.structured) result.structuredContent = this.structured;
    if (this.error) result.isError = true;
    return result;
  }
}

/** The empty click shape, so that a refused input reads like every other click result. */
export const NO_CLICK = {
  dispatched: null,
  hitNow: null,
  hitAtCapture: null,
  mutationsSinceFrame: null,
  frameAgeMs: null,
};

/** Known failures become an error result that says what was wrong and what to do; others are rethrown. */
export function errorResult(err: unknown, shape: Record<string, unknown> = {}): CallToolResult {
  if (err instanceof GeometryError || err instanceof ActionError || err instanceof BrowserError) {
    const field = err instanceof BrowserError ? undefined : err.field;
    const text =
      err instanceof GeometryError
        ? `Error (${err.code}): ${err.message}`
        : `Error (${err.code}): ${err.message} ${err.hint}`;
    return new ResponseBuilder()
      .line(`${text}\nNothing was clicked.`)
      .structuredContent({
        ...shape,
        verdict: 'BAD_INPUT',
        error: { code: err.code, message: err.message, hint: err.hint, ...(field ? { field } : {}) },
      })
      .isError()
      .build();
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ResponseBuilder()
    .line(
      `Error: ${message}\nNothing was clicked. Retry; if it persists, take a new screenshot or navigate again.`,
    )
    .structuredContent({ ...shape, verdict: 'BAD_INPUT', error: { code: 'INTERNAL', message } })
    .isError()
    .build();
}
