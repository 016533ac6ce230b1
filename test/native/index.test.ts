// The entry point: which presets have a native format, the refusals common to all families, and the
// property that no input whatsoever gets anything but a batch or a NativeActionError, quickly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { PRESET_NAMES, type PresetName, TrueclickError } from '../../src/geometry/index.js';
import {
  familyOf,
  NATIVE_ERROR_CODES,
  NATIVE_MODELS,
  NativeActionError,
  parseNativeAction,
} from '../../src/native/index.js';
import { nativeError } from './helpers.js';

describe('native: models and families', () => {
  it('maps each preset with an action format to its family', () => {
    assert.deepEqual(Object.fromEntries(PRESET_NAMES.map((m) => [m, familyOf(m)])), {
      claude: 'anthropic',
      'anthropic-quickstart': 'anthropic',
      'openai-cua': 'openai',
      gemini: 'gemini',
      'qwen2-vl': undefined,
      'qwen2.5-vl': 'qwen',
      'qwen3-vl': 'qwen',
      'ui-tars': 'ui-tars',
      'ui-tars-1.5': 'ui-tars',
      molmo: undefined,
      'florence-2': undefined,
      seeclick: undefined,
      showui: undefined,
      'os-atlas': undefined,
    });
    assert.deepEqual(
      [...NATIVE_MODELS].sort(),
      [
        'anthropic-quickstart',
        'claude',
        'gemini',
        'openai-cua',
        'qwen2.5-vl',
        'qwen3-vl',
        'ui-tars',
        'ui-tars-1.5',
      ].sort(),
    );
  });

  it('presets without a format are refused, naming the ones that have one', () => {
    for (const model of ['molmo', 'florence-2', 'qwen2-vl', 'os-atlas'] as const) {
      const e = nativeError(() => parseNativeAction(model, '[1, 2]'), 'NATIVE_NO_FORMAT', 'model');
      assert.match(e.hint, /claude, anthropic-quickstart, openai-cua, gemini/);
    }
    nativeError(() => parseNativeAction('gpt-9' as PresetName, {}), 'NATIVE_NO_FORMAT', 'model');
  });

  it('NativeActionError is a TrueclickError of kind bad_input', () => {
    const e = nativeError(() => parseNativeAction('molmo', ''), 'NATIVE_NO_FORMAT');
    assert.ok(e instanceof TrueclickError);
    assert.equal(e.name, 'NativeActionError');
    assert.ok(NATIVE_ERROR_CODES.includes(e.code));
  });

  it('raw text over 65 536 characters is refused before it is read, without echoing it', () => {
    for (const model of NATIVE_MODELS) {
      const e = nativeError(
        () => parseNativeAction(model, 'q'.repeat(65_537)),
        'NATIVE_TOO_LARGE',
        'model_output',
      );
      assert.ok(!e.message.includes('qqqqqqqq'));
    }
  });

  it('a NO_ACTION hint says which shapes the family accepts', () => {
    const hints: Array<[PresetName, RegExp]> = [
      ['claude', /tool_use/],
      ['openai-cua', /computer_call/],
      ['gemini', /functionCall/],
      ['ui-tars', /Action: click\(start_box/],
      ['qwen3-vl', /<tool_call>/],
    ];
    for (const [model, shape] of hints) {
      const e = nativeError(() => parseNativeAction(model, 'Nothing to do here.'), 'NATIVE_NO_ACTION');
      assert.match(e.hint, shape, model);
    }
  });
});

/** Calls parseNativeAction and reports whether it returned a batch or threw a NativeActionError, and how long it took. */
function outcome(model: PresetName, input: unknown): { ms: number } {
  const start = performance.now();
  try {
    const b = parseNativeAction(model, input);
    assert.ok(Array.isArray(b.steps) && b.steps.length > 0, 'a batch has steps');
    assert.equal(b.model, model);
  } catch (err) {
    if (!(err instanceof NativeActionError)) throw err;
    assert.ok(err.message.length < 1_000, 'messages stay short');
  }
  return { ms: performance.now() - start };
}

describe('native: properties', () => {
  const models = fc.constantFrom(...NATIVE_MODELS);
  const BUDGET_MS = 250;

  it('any JSON value: a batch or a NativeActionError, quickly', () => {
    fc.assert(
      fc.property(models, fc.jsonValue({ maxDepth: 6 }), (model, value) => {
        assert.ok(outcome(model, value).ms < BUDGET_MS);
        assert.ok(outcome(model, JSON.stringify(value) ?? '').ms < BUDGET_MS);
      }),
      { numRuns: 1_000 },
    );
  });

  it('any string: a batch or a NativeActionError, quickly', () => {
    fc.assert(
      fc.property(models, fc.string({ maxLength: 400, unit: 'binary' }), (model, text) => {
        assert.ok(outcome(model, text).ms < BUDGET_MS);
      }),
      { numRuns: 1_000 },
    );
  });

  it('near-misses of each format: a batch or a NativeActionError', () => {
    const word = fc.constantFrom(
      'computer',
      'computer_use',
      'tool_use',
      'computer_call',
      'left_click',
      'click',
      'click_at',
      'type',
      'key',
      'scroll',
      'drag',
      'navigate',
      'browser',
      '__proto__',
      'constructor',
      'toString',
    );
    const leaf = fc.oneof(
      word,
      fc.integer({ min: -5, max: 2_000 }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        leaf,
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(
          fc.constantFrom(
            'type',
            'name',
            'input',
            'action',
            'actions',
            'args',
            'arguments',
            'coordinate',
            'x',
            'y',
            'text',
            'keys',
            'content',
            'parts',
            'toolset_name',
            'target',
            '__proto__',
          ),
          tie('node'),
          { maxKeys: 5 },
        ),
      ),
    })).node;
    fc.assert(
      fc.property(models, value, (model, v) => {
        assert.ok(outcome(model, v).ms < BUDGET_MS);
      }),
      { numRuns: 2_000 },
    );
  });

  it('texts built from each format’s tokens: a batch or a NativeActionError', () => {
    const token = fc.constantFrom(
      'Thought: x\n',
      'Action: ',
      'click(',
      "start_box='",
      "point='<point>",
      '</point>',
      '(10,20)',
      "')",
      ')',
      '\n\n',
      "type(content='",
      '\\n',
      "\\'",
      "'",
      '"',
      ',',
      '<tool_call>',
      '</tool_call>',
      '{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [1, 2]}}',
      '{"action": "key", "keys": ["ctrl", "c"]}',
      '<|box_start|>',
      '<|box_end|>',
      'hotkey(key=',
      ' ',
    );
    fc.assert(
      fc.property(models, fc.array(token, { maxLength: 30 }), (model, tokens) => {
        assert.ok(outcome(model, tokens.join('')).ms < BUDGET_MS);
      }),
      { numRuns: 2_000 },
    );
  });

  it('adversarial long texts stay fast', () => {
    const max = 65_536;
    const fill = (unit: string) => unit.repeat(Math.floor(max / unit.length));
    const texts = [
      fill('('),
      fill("'"),
      fill(' '),
      fill('+'),
      fill('<tool_call>'),
      fill('<tool_call>{'),
      fill('click('),
      fill("a(b='"),
      fill("a(b=' ',"),
      `Action: type(content='${fill("x' ")}`,
      `Action: ${fill('wait()\n\n').slice(0, max - 8)}`,
      fill('Action:'),
      fill('\\'),
      `{"type":"tool_use","name":"key","toolset_name":"computer","input":{"text":"${' '.repeat(1_990)}+"}}`,
      JSON.stringify({
        type: 'computer_call',
        actions: Array.from({ length: 2_000 }, () => ({ type: 'wait' })),
      }).slice(0, max),
      fill('['),
    ];
    for (const model of NATIVE_MODELS) {
      for (const text of texts.map((t) => t.slice(0, max))) {
        const { ms } = outcome(model, text);
        assert.ok(ms < 1_000, `${model} took ${ms.toFixed(0)} ms on ${JSON.stringify(text.slice(0, 30))}`);
      }
    }
  });
});
