import { z } from 'zod';
import { show, TrueclickError } from '../geometry/index.js';
import { type Cap, enableHint } from './caps.js';

// A tool's arguments, checked before anything runs: unknown names are refused by name (a typo such as
// `unit` or Playwright's `clickCount` must not turn into a click with defaults), and schema errors come back
// as the same structured refusal as any other.

/** `clickCount` → `clickcount`, `click_count` → `clickcount`: names that differ only in spelling style. */
const squash = (s: string) => s.toLowerCase().replace(/[_-]/g, '');

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j] ?? 0;
      row[j] = Math.min(here + 1, (row[j - 1] ?? 0) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length] ?? 0;
}

/** The known name an unknown one most likely meant, if any is close. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const s = squash(name);
  const same = known.find((k) => squash(k) === s);
  if (same) return same;
  let best: { k: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(s, squash(k));
    if (d <= Math.max(1, Math.floor(k.length / 4)) && (!best || d < best.d)) best = { k, d };
  }
  return best?.k;
}

/** JSON clients send null for "not given": such keys are dropped before checking. */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== null && v !== undefined) out[k] = v;
  return out;
}

function unknownNames(
  tool: string,
  args: Record<string, unknown>,
  shape: z.ZodRawShape,
  hidden: Record<string, Cap>,
): void {
  const known = Object.keys(shape);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length === 0) return;
  const off = unknown.find((u) => hidden[u]);
  if (off)
    throw new TrueclickError(
      'UNKNOWN_ARGUMENT',
      `${tool}: ${show(off)} is not offered by this server; nothing was done.`,
      enableHint(hidden[off] as Cap),
      off,
    );
  const guesses = unknown.map((u) => {
    const c = closestName(u, known);
    return c ? `${show(u)} (did you mean ${show(c)}?)` : show(u);
  });
  throw new TrueclickError(
    'UNKNOWN_ARGUMENT',
    `${tool} has no argument ${guesses.join(', ')}; nothing was done with it.`,
    `Its arguments are: ${known.join(', ')}.`,
    unknown[0],
  );
}

function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

/** The first schema problem as a refusal: which field, what was wrong, what the field takes. */
function schemaError(tool: string, error: z.ZodError, shape: z.ZodRawShape, about?: string): TrueclickError {
  const issue = error.issues[0];
  const field = issue ? issuePath(issue.path) : '';
  const top = issue?.path[0];
  const described = typeof top === 'string' ? (shape[top] as z.ZodType | undefined)?.description : undefined;
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem(s))` : '';
  return new TrueclickError(
    'BAD_ARGUMENT',
    `${tool}: ${field || 'arguments'}: ${issue?.message ?? 'invalid'}${more}.`,
    described
      ? `${field || 'It'} is: ${described}`
      : about
        ? `${tool}: ${about}`
        : 'Check the tool’s input schema.',
    field || undefined,
  );
}

/** One parser per tool: zod compiles an object's parser on its first use, which costs milliseconds a call. */
const parsers = new WeakMap<z.ZodRawShape, z.ZodObject>();

function parserOf(shape: z.ZodRawShape): z.ZodObject {
  let p = parsers.get(shape);
  if (!p) {
    p = z.object(shape);
    parsers.set(shape, p);
  }
  return p;
}

/** Checks raw tool arguments against the tool's shape; throws a TrueclickError naming the field. */
export function checkArguments<Shape extends z.ZodRawShape>(
  tool: string,
  raw: unknown,
  shape: Shape,
  /** Fields of groups this run leaves out: naming one says which group brings it. */
  hidden: Record<string, Cap> = {},
  /** The tool's description: the hint for a field that has none of its own (its unit is said there). */
  about?: string,
): z.infer<z.ZodObject<Shape>> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw new TrueclickError(
      'BAD_ARGUMENT',
      `${tool}: the arguments are ${show(raw)}, not an object.`,
      'Pass the arguments as a JSON object.',
    );
  }
  const args = withoutNulls((raw ?? {}) as Record<string, unknown>);
  unknownNames(tool, args, shape, hidden);
  const parsed = parserOf(shape).safeParse(args);
  if (!parsed.success) throw schemaError(tool, parsed.error, shape, about);
  return parsed.data as z.infer<z.ZodObject<Shape>>;
}
