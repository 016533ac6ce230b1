// Output grammars per family: tolerant of prose and fences, strict about ambiguity and foreign forms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PresetName, parseModelOutput } from '../../src/geometry/index.js';
import { assertGeometryError, expectGeometryError } from './helpers.js';

function parsed(preset: PresetName, text: string) {
  const r = parseModelOutput(preset, text);
  return { kind: r.kind, values: r.values, axis_order: r.axis_order };
}

describe('parseModelOutput: forms', () => {
  const cases: Array<[PresetName, string, 'point' | 'box', number[], ('xy' | undefined)?]> = [
    ['claude', '[512, 300]', 'point', [512, 300]],
    ['claude', 'The button is at [100, 200, 300, 400].', 'box', [100, 200, 300, 400]],
    ['claude', '{"action": "left_click", "coordinate": [665, 432]}', 'point', [665, 432]],
    ['claude', 'pyautogui.click(100, 200)', 'point', [100, 200], 'xy'],
    ['claude', 'pyautogui.click(x=0.25, y=0.5)', 'point', [0.25, 0.5], 'xy'],
    ['openai-cua', '{"type":"click","button":"left","x":900,"y":100}', 'point', [900, 100], 'xy'],
    ['openai-cua', "{'y': 100, 'x': 900}", 'point', [900, 100], 'xy'],
    [
      'gemini',
      '```json\n[{"box_2d": [100, 200, 300, 400], "label": "ok"}]\n```',
      'box',
      [100, 200, 300, 400],
    ],
    ['gemini', '[{"point": [500, 250], "label": "Submit"}]', 'point', [500, 250]],
    ['gemini', 'click_at(x=500, y=250)', 'point', [500, 250], 'xy'],
    ['gemini', '{"name": "click_at", "args": {"x": 500, "y": 250}}', 'point', [500, 250], 'xy'],
    ['qwen2-vl', '<|box_start|>(576,12),(592,42)<|box_end|>', 'box', [576, 12, 592, 42]],
    ['qwen2-vl', '<ref>close</ref><box>(576,12),(592,42)</box>', 'box', [576, 12, 592, 42]],
    ['qwen2.5-vl', '{"bbox_2d": [10, 20, 30, 40], "label": "x"}', 'box', [10, 20, 30, 40]],
    ['qwen2.5-vl', "{'point_2d': [1000, 300]}", 'point', [1000, 300]],
    [
      'qwen2.5-vl',
      '<tool_call>{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [5, 6]}}',
      'point',
      [5, 6],
    ],
    ['ui-tars', "Action: click(start_box='(235,512)')", 'point', [235, 512]],
    ['ui-tars', "Action: click(start_box='<|box_start|>(235,512)<|box_end|>')", 'point', [235, 512]],
    ['ui-tars-1.5', "Action: click(point='<point>235 512</point>')", 'point', [235, 512]],
    ['ui-tars-1.5', '<point>235 512</point>', 'point', [235, 512]],
    ['ui-tars-1.5', '<bbox>175 98 791 476</bbox>', 'box', [175, 98, 791, 476]],
    ['ui-tars', "Action: click(start_box='(100,200,300,400)')", 'box', [100, 200, 300, 400]],
    ['molmo', '<point x="61.5" y="40.6" alt="Submit">Submit</point>', 'point', [61.5, 40.6], 'xy'],
    ['molmo', '<points x1="10" y1="20" alt="a">a</points>', 'point', [10, 20], 'xy'],
    ['florence-2', '<loc_250><loc_100><loc_750><loc_300>', 'box', [250, 100, 750, 300]],
    [
      'florence-2',
      'text<loc_10><loc_20><loc_30><loc_20><loc_30><loc_40><loc_10><loc_40>',
      'box',
      [10, 20, 30, 40],
    ],
    ['seeclick', '(0.49,0.40)', 'point', [0.49, 0.4]],
    ['showui', '[0.49, 0.40]', 'point', [0.49, 0.4]],
    ['os-atlas', 'CLICK <point>[[500,500]]</point>', 'point', [500, 500]],
    ['showui', '[[0.1, 0.2, 0.3, 0.4]]', 'box', [0.1, 0.2, 0.3, 0.4]],
    ['claude', 'Same target twice: [5, 6] and again [5, 6].', 'point', [5, 6]],
    ['claude', '[1e2, .5]', 'point', [100, 0.5]],
  ];
  for (const [preset, text, kind, values, axis] of cases) {
    it(`${preset}: ${text.slice(0, 70)}`, () => {
      const r = parsed(preset, text);
      assert.deepEqual({ kind: r.kind, values: r.values }, { kind, values });
      assert.equal(r.axis_order, axis);
    });
  }
});

describe('parseModelOutput: refusals', () => {
  it('two different targets', () =>
    assertGeometryError(
      () => parseModelOutput('claude', 'Either [10, 20] or [30, 40].'),
      'PARSE_AMBIGUOUS',
      'single',
    ));
  it('a drag (two points) is not a click', () =>
    assertGeometryError(
      () => parseModelOutput('ui-tars', "drag(start_box='(10,20)', end_box='(300,400)')"),
      'PARSE_AMBIGUOUS',
      'one action',
    ));
  it('Gemini drag_and_drop has a destination', () =>
    assertGeometryError(
      () => parseModelOutput('gemini', 'drag_and_drop(x=10, y=20, destination_x=300, destination_y=400)'),
      'PARSE_AMBIGUOUS',
      'single',
    ));
  it('an OpenAI drag path', () =>
    assertGeometryError(
      () => parseModelOutput('openai-cua', '{"type":"drag","path":[{"x":1,"y":2},{"x":30,"y":40}]}'),
      'PARSE_AMBIGUOUS',
      'single',
    ));
  it('two Florence-2 boxes', () =>
    assertGeometryError(
      () => parseModelOutput('florence-2', 'car<loc_1><loc_2><loc_3><loc_4>dog<loc_5><loc_6><loc_7><loc_8>'),
      'PARSE_AMBIGUOUS',
      'single',
    ));
  it('Gemini box_2d given to a Qwen preset', () => {
    const e = expectGeometryError(
      () => parseModelOutput('qwen3-vl', '{"box_2d": [1, 2, 3, 4]}'),
      'PARSE_WRONG_FAMILY',
      "model: 'gemini'",
    );
    assert.match(e.message, /gemini/);
  });
  it('Qwen2.5-VL bbox_2d given to Gemini', () =>
    assertGeometryError(
      () => parseModelOutput('gemini', '{"bbox_2d": [1, 2, 3, 4]}'),
      'PARSE_WRONG_FAMILY',
      "model: 'qwen2.5-vl'",
    ));
  it('Florence tokens given to Claude', () =>
    assertGeometryError(
      () => parseModelOutput('claude', '<loc_1><loc_2>'),
      'PARSE_WRONG_FAMILY',
      "'florence-2'",
    ));
  it('three loc tokens', () =>
    assertGeometryError(
      () => parseModelOutput('florence-2', '<loc_1><loc_2><loc_3>'),
      'PARSE_BAD_ARITY',
      '2 numbers',
    ));
  it('a box_2d with 3 numbers', () =>
    assertGeometryError(
      () => parseModelOutput('gemini', '{"box_2d": [1, 2, 3]}'),
      'PARSE_BAD_ARITY',
      '4 numbers',
    ));
  it('prose without coordinates', () =>
    assertGeometryError(
      () => parseModelOutput('claude', 'I cannot find the button.'),
      'PARSE_NO_TARGET',
      'x/y or box',
    ));
  it('an unknown preset', () =>
    assertGeometryError(() => parseModelOutput('gpt' as PresetName, '[1,2]'), 'UNKNOWN_PRESET', 'claude'));
  it('not a string', () =>
    assertGeometryError(() => parseModelOutput('claude', 42 as unknown as string), 'BAD_REQUEST', 'string'));
  it('too long', () =>
    assertGeometryError(
      () => parseModelOutput('claude', `[1,2]${' '.repeat(200_000)}`),
      'BAD_REQUEST',
      'at most',
    ));
});
