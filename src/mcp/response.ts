import type { CallToolResult } from '@modelcontextprotocol/server';
import { ERROR_VERDICTS } from '../actions/check/verdicts.js';
import { TrueclickError } from '../geometry/index.js';

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

  /** A line that goes before everything else (a notice the agent must read first). */
  lead(text: string): this {
    this.lines.unshift(text);
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

  /** Adds fields to the structuredContent. */
  merge(value: Record<string, unknown>): this {
    this.structured = { ...(this.structured ?? {}), ...value };
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

/**
 * Any throw as the one refusal shape: `{verdict, message, error: {code, kind, message, hint, field?}}`, with
 * `isError`. A known error says what was wrong and what to do; anything else is an internal error.
 */
export function errorResult(
  err: unknown,
  undone: string,
  shape: Record<string, unknown> = {},
): CallToolResult {
  const known =
    err instanceof TrueclickError
      ? err
      : new TrueclickError(
          'INTERNAL',
          `trueclick failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
          'Retry; if it persists, take a new screenshot or navigate again, and report it.',
          undefined,
          'internal',
        );
  const verdict = ERROR_VERDICTS[known.kind];
  const message = `Error (${known.code}): ${known.problem} ${known.hint}`;
  return new ResponseBuilder()
    .line(`${message}${undone ? `\n${undone}` : ''}`)
    .structuredContent({
      ...shape,
      verdict,
      message,
      error: {
        code: known.code,
        kind: known.kind,
        message: known.problem,
        hint: known.hint,
        ...(known.field ? { field: known.field } : {}),
      },
    })
    .isError()
    .build();
}
