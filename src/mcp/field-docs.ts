import type { z } from 'zod';

// What an input field means, for docs/tools.md and the README only. Every word of an input schema's
// descriptions is paid for on every step, so a field whose name, type and tool description already tell
// the model what to send keeps the rest of its meaning here: `npm run readme` prints a field's description
// (what the model reads) followed by its doc. Answer fields need none of this: their descriptions are not
// in tools/list (server.ts's outline() keeps names and types only), so they carry their meaning themselves.

const FIELD_DOCS = new WeakMap<z.ZodType, string>();

/** The field itself, with `doc` as its meaning in the reference (never sent to the model). */
export function documented<T extends z.ZodType>(field: T, doc: string): T {
  FIELD_DOCS.set(field, doc);
  return field;
}

/** The doc-only meaning of each field of an input shape that has one, by field name. */
export function inputDocs(shape: z.ZodRawShape): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, field] of Object.entries(shape)) {
    const doc = FIELD_DOCS.get(field as z.ZodType);
    if (doc) out[name] = doc;
  }
  return out;
}

/** A field's meaning as the reference prints it: what the model reads, then what only the docs say. */
export function meaning(description: string | undefined, doc: string | undefined): string {
  return [description, doc].filter(Boolean).join(' ');
}
