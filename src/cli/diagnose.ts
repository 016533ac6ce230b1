// `trueclick diagnose FILE`: intended vs actual click points in, fitted transform and verdict out. The command
// wiring lives in main.ts; this file only reads the samples and renders the diagnosis as text.

import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { type Diagnosis, diagnose, GeometryError, type Sample } from '../geometry/index.js';

/** A sample file that cannot be read or understood; `message` says what is wrong and what the file should hold. */
export class DiagnoseInputError extends GeometryError {
  constructor(problem: string, hint = FORMAT_HINT) {
    super('DIAGNOSE_INPUT', problem, hint);
    this.name = 'DiagnoseInputError';
  }
}

const FORMAT_HINT =
  'Pass JSON [{"intended":[x,y],"actual":[x,y]}, ...] or {"intended":[[x,y],...],"actual":[[x,y],...]}, or CSV with the header intended_x,intended_y,actual_x,actual_y.';

const CSV_COLUMNS = ['intended_x', 'intended_y', 'actual_x', 'actual_y'] as const;

function point(v: unknown, where: string): [number, number] {
  if (Array.isArray(v) && v.length === 2) {
    const [x, y] = v as unknown[];
    if (typeof x === 'number' && typeof y === 'number' && Number.isFinite(x) && Number.isFinite(y))
      return [x, y];
  }
  throw new DiagnoseInputError(
    `${where} is ${JSON.stringify(v) ?? String(v)}, not [x, y] with two finite numbers.`,
  );
}

export function samplesFromJson(text: string): Sample[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DiagnoseInputError(`The file is not valid JSON (${(err as Error).message}).`);
  }
  if (Array.isArray(data)) {
    return data.map((s: unknown, i) => {
      const r = typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : {};
      return {
        intended: point(r.intended, `item ${i} intended`),
        actual: point(r.actual, `item ${i} actual`),
      };
    });
  }
  if (typeof data === 'object' && data !== null) {
    const { intended, actual } = data as Record<string, unknown>;
    if (!Array.isArray(intended) || !Array.isArray(actual)) {
      throw new DiagnoseInputError('The JSON object needs two lists, "intended" and "actual".');
    }
    if (intended.length !== actual.length) {
      throw new DiagnoseInputError(
        `"intended" has ${intended.length} points but "actual" has ${actual.length}.`,
        'Pass one actual point for each intended point, in the same order.',
      );
    }
    return intended.map((p, i) => ({
      intended: point(p, `intended[${i}]`),
      actual: point(actual[i], `actual[${i}]`),
    }));
  }
  throw new DiagnoseInputError('The JSON holds neither a list of samples nor an {intended, actual} object.');
}

export function samplesFromCsv(text: string): Sample[] {
  const lines = text
    .split(/\r?\n/)
    .map((l, i) => ({ line: i + 1, cells: l.split(',').map((c) => c.trim()) }))
    .filter((l) => l.cells.join('') !== '' && !(l.cells[0] ?? '').startsWith('#'));
  const header = lines.shift();
  const index = CSV_COLUMNS.map((c) => header?.cells.indexOf(c) ?? -1);
  if (header === undefined || index.some((i) => i < 0)) {
    throw new DiagnoseInputError(
      `The CSV header ${header ? JSON.stringify(header.cells.join(',')) : '(none)'} lacks ${CSV_COLUMNS.filter((_, i) => (index[i] ?? -1) < 0).join(', ')}.`,
    );
  }
  return lines.map(({ line, cells }) => {
    const v = index.map((i) => Number(cells[i] ?? ''));
    if (v.some((n, k) => !Number.isFinite(n) || (cells[index[k] ?? 0] ?? '') === '')) {
      throw new DiagnoseInputError(
        `Line ${line} (${JSON.stringify(cells.join(','))}) does not hold four numbers.`,
        `Give every row ${CSV_COLUMNS.join(',')} as numbers.`,
      );
    }
    const [ix = 0, iy = 0, ax = 0, ay = 0] = v;
    return { intended: [ix, iy], actual: [ax, ay] };
  });
}

/** JSON by extension, else by the first character; everything else is read as CSV. */
export function readSamples(filePath: string): Sample[] {
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (err) {
    throw new DiagnoseInputError(
      `Cannot read ${filePath}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}.`,
      'Pass the path of an existing JSON or CSV file of intended/actual points.',
    );
  }
  const ext = extname(filePath).toLowerCase();
  const looksJson = ext === '.json' || (ext !== '.csv' && /^\s*[[{]/.test(text));
  return looksJson ? samplesFromJson(text) : samplesFromCsv(text);
}

function num(v: number, digits: number): string {
  return Number.isFinite(v) ? v.toFixed(digits) : String(v);
}

export function formatDiagnosis(d: Diagnosis): string {
  const rows = [
    ['axis', 'scale', 'offset', 'residual px'],
    ...(['x', 'y'] as const).map((a) => [
      a,
      num(d.fit[a].scale, 4),
      num(d.fit[a].offset, 2),
      num(d.fit[a].residual, 2),
    ]),
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  const table = rows.map((r) => r.map((cell, c) => cell.padStart(widths[c] ?? 0)).join('  ')).join('\n');
  const out = [
    `samples: ${d.samples}`,
    'fit: actual = scale * intended + offset',
    table,
    '',
    `verdict: ${d.verdict}`,
    d.message,
  ];
  if (d.likelyCauses.length > 0) out.push('', 'likely causes:', ...d.likelyCauses.map((c) => `  - ${c}`));
  return out.join('\n');
}

/** Reads intended/actual pairs from `filePath` (JSON or CSV) and returns the printable diagnosis. */
export function runDiagnose(filePath: string): string {
  const samples = readSamples(filePath);
  if (samples.length === 0) {
    throw new DiagnoseInputError(`${filePath} holds no samples.`, 'Add at least 3 intended/actual pairs.');
  }
  return formatDiagnosis(diagnose(samples));
}
