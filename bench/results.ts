/** What the bench measured, in the shape written to bench/results/latest.json and printed as tables. */
import type { Summary } from './stats.js';

export interface Measure {
  /** Stable key, e.g. "capture./blank.trueclick". */
  key: string;
  thing: string;
  page?: string;
  /** Image size sent, e.g. "1356×848". */
  image?: string;
  summary: Summary;
  note?: string;
}

/** One SPEC S7 target, checked. `met` is null when it could not be checked (a peer did not run). */
export interface Check {
  key: string;
  thing: string;
  /** What was measured against the target, printed as is (e.g. "0.71× bare CDP"). */
  measured: string;
  value: number;
  target: string;
  met: boolean | null;
  note?: string;
}

export interface CountRow {
  key: string;
  thing: string;
  runs: number;
  /** The count the target is about (wrong-row deliveries / deletions). */
  wrong: number;
  detail: string;
  target: string;
  met: boolean | null;
}

export interface GapRow {
  key: string;
  thing: string;
  summary: Summary;
  note?: string;
}

/** What one server's tool list costs the model: per tool, or (tool absent) the whole list. */
export interface ToolListRow {
  server: string;
  tool?: string;
  tools: number;
  modelChars: number;
  modelTokens: number;
  wholeChars?: number;
  wholeTokens?: number;
}

export interface Section {
  lists?: ToolListRow[];
  measures: Measure[];
  checks: Check[];
  counts: CountRow[];
  gaps: GapRow[];
  warnings: string[];
  raw?: Record<string, unknown>;
}

export const emptySection = (): Section => ({ measures: [], checks: [], counts: [], gaps: [], warnings: [] });

export function merge(into: Section, s: Section): void {
  into.measures.push(...s.measures);
  into.checks.push(...s.checks);
  into.counts.push(...s.counts);
  into.gaps.push(...s.gaps);
  if (s.lists) into.lists = [...(into.lists ?? []), ...s.lists];
  into.warnings.push(...s.warnings);
  if (s.raw) into.raw = { ...(into.raw ?? {}), ...s.raw };
}
