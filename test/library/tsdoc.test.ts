// Every public export of the three entry points (trueclick, trueclick/geometry, trueclick/test) carries TSDoc:
// what an editor shows a user hovering it. Read with the TypeScript compiler from the sources.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENTRIES = ['src/index.ts', 'src/geometry/index.ts', 'src/playwright-test.ts'];

test('every export of trueclick, trueclick/geometry and trueclick/test has TSDoc', () => {
  const files = ENTRIES.map((f) => `${ROOT}${f}`);
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const missing: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    assert.ok(source, file);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol, file);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      // A namespace re-export (export * as geometry) is documented by its own module's exports.
      if (symbol.flags & ts.SymbolFlags.ValueModule) continue;
      const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      if (!doc) missing.push(`${file.slice(ROOT.length)}: ${exported.getName()}`);
    }
  }
  assert.deepEqual(missing, [], `exports without TSDoc:\n${missing.join('\n')}`);
});
