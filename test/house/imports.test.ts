// The house rules of SPEC S1, read off the source: no import circles anywhere in src/ (type imports count: two
// files that name each other cannot be understood or moved one without the other), and no layer importing one
// it must never know.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SRC = join(ROOT, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Each source file and the source files it imports (relative imports, `import type` included). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files(SRC)) {
    const src = readFileSync(f, 'utf8');
    const deps = [...src.matchAll(/^(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gms)].map((m) =>
      resolve(dirname(f), (m[1] as string).replace(/\.js$/, '.ts')),
    );
    graph.set(resolve(f), deps);
  }
  return graph;
}

/** Groups of files that reach each other through imports (Tarjan's strongly connected components). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) out.push(group.map((g) => relative(ROOT, g)).sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

test('no import circles in src/', () => {
  assert.deepEqual(circles(importGraph()), []);
});

test('the circle finder finds one (a test that can fail)', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(
    circles(g).map((c) => c.map((x) => x.replace(/^.*[\\/]/, ''))),
    [['a', 'b', 'c']],
  );
});

/** SPEC S1: what each layer never imports (src/trace, the trace writer, sits below actions and mcp). */
const NEVER: Record<string, string[]> = {
  geometry: ['browser', 'mcp', 'cli', 'actions', 'image', 'native', 'grounding', 'trace'],
  image: ['browser', 'mcp', 'cli', 'actions'],
  browser: ['mcp', 'cli', 'actions', 'grounding'],
  native: ['browser', 'mcp', 'cli', 'actions'],
  grounding: ['mcp', 'cli'],
  trace: ['browser', 'actions', 'mcp', 'cli'],
  actions: ['mcp', 'cli'],
  mcp: ['cli'],
};

test('no layer imports one it must never know (SPEC S1)', () => {
  const wrong: string[] = [];
  for (const [file, deps] of importGraph()) {
    const layer = relative(SRC, file).split(/[\\/]/)[0] ?? '';
    for (const dep of deps) {
      const to = relative(SRC, dep).split(/[\\/]/)[0] ?? '';
      if (NEVER[layer]?.includes(to)) wrong.push(`${relative(ROOT, file)} → ${relative(ROOT, dep)}`);
    }
  }
  assert.deepEqual(wrong, []);
});
