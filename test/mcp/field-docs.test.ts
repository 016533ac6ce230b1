// docs/tools.md says what every argument and every answer field means, and the model pays for none of the
// doc-only meanings: they never reach tools/list. No browser: the tool list is built, not served.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ALL_CAPS } from '../../src/mcp/caps.js';
import { inputDocs } from '../../src/mcp/field-docs.js';
import { answerFields, enabledTools, listTools } from '../../src/mcp/server.js';

const tools = enabledTools(ALL_CAPS);
const listed = listTools(ALL_CAPS);

describe('field meanings', () => {
  test('every argument of every tool has a description or a doc', () => {
    const bare: string[] = [];
    for (const t of tools) {
      const props = (listed.find((x) => x.name === t.name)?.inputSchema.properties ?? {}) as Record<
        string,
        { description?: string }
      >;
      const docs = inputDocs(t.inputSchema);
      for (const [k, p] of Object.entries(props)) if (!p.description && !docs[k]) bare.push(`${t.name}.${k}`);
    }
    assert.deepEqual(bare, [], 'arguments without a meaning in docs/tools.md');
  });

  test('every answer field of every tool has a description', () => {
    const bare = tools.flatMap((t) =>
      Object.entries(answerFields(t))
        .filter(([, p]) => !p.description)
        .map(([k]) => `${t.name}.${k}`),
    );
    assert.deepEqual(bare, [], 'answer fields without a meaning in docs/tools.md');
  });

  test('the verdict description names every verdict the answer can carry', () => {
    const verdict = answerFields(tools[0] as (typeof tools)[number]).verdict as {
      description?: string;
      enum?: string[];
    };
    assert.ok(verdict.enum?.includes('DISABLED'));
    for (const v of verdict.enum ?? [])
      assert.match(verdict.description ?? '', new RegExp(`\\b${v}\\b`), `verdict description names ${v}`);
  });

  test('doc-only meanings are not in tools/list', () => {
    const list = JSON.stringify(listed);
    for (const t of tools)
      for (const [k, doc] of Object.entries(inputDocs(t.inputSchema)))
        assert.ok(!list.includes(doc.slice(0, 40)), `${t.name}.${k}'s doc is not sent to the model`);
  });
});
