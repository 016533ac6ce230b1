// Every preset with a worked vector (research/conventions.md TVn, or computed the same way in the comment),
// once through model + model_output and once through explicit fields, which must agree.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type FrameGeometry,
  PRESET_NAMES,
  type PresetName,
  resolveRequest,
  type TargetRequest,
} from '../../src/geometry/index.js';
import { assertNear, frameOf } from './helpers.js';

interface Vector {
  name: string;
  model: PresetName;
  frame: FrameGeometry;
  output: string;
  explicit: TargetRequest;
  expected: [number, number];
  extra?: Partial<TargetRequest>;
}

const FHD = frameOf([1920, 1080]);

const VECTORS: Vector[] = [
  {
    // TV1: viewport 1280x640 at DPR 2, sent as 1000x500, shown at 1568 wide. Centre (x 300, y 200) permille
    // -> (0.3 * 1280, 0.2 * 640) = (384, 128); image size, shown width and DPR cancel.
    name: 'TV1 gemini box_2d',
    model: 'gemini',
    frame: frameOf([1280, 640], [1000, 500], { devicePixelRatio: 2 }),
    output: '```json\n[{"box_2d": [100, 200, 300, 400], "label": "Approve"}]\n```',
    explicit: { box: [100, 200, 300, 400], units: 'permille', axis_order: 'yx' },
    extra: { shown_width: 1568 },
    expected: [384, 128],
  },
  {
    // TV2: point [y, x] = [500, 250] on 1440x900 -> x = 0.25 * 1440 = 360, y = 0.5 * 900 = 450.
    name: 'TV2 gemini point, y first',
    model: 'gemini',
    frame: frameOf([1440, 900]),
    output: '[{"point": [500, 250], "label": "Submit"}]',
    explicit: { x: 500, y: 250, units: 'permille', axis_order: 'yx' },
    expected: [360, 450],
  },
  {
    // Gemini Computer Use names its axes: click_at(x=500, y=250) on 1440x900 -> (720, 225), the reading TV2
    // warns against for point [y, x], right here because the keys say which is which.
    name: 'gemini click_at, named x/y',
    model: 'gemini',
    frame: frameOf([1440, 900]),
    output: 'I will press the button.\nclick_at(x=500, y=250)',
    explicit: { x: 500, y: 250, units: 'permille' },
    expected: [720, 225],
  },
  {
    // TV4b: box_2d [100,200,300,400] on 1280x720, y first: centre x 300, y 200 -> (384, 144).
    name: 'TV4b gemini box_2d on 1280x720',
    model: 'gemini',
    frame: frameOf([1280, 720]),
    output: '{"box_2d":[100,200,300,400]}',
    explicit: { box: [100, 200, 300, 400], units: 'permille', axis_order: 'yx' },
    expected: [384, 144],
  },
  {
    // TV4a: Qwen3-VL bbox_2d [x1,y1,x2,y2] permille: centre (200, 300) -> (0.2 * 1280, 0.3 * 720) = (256, 216).
    name: 'TV4a qwen3-vl bbox_2d',
    model: 'qwen3-vl',
    frame: frameOf([1280, 720]),
    output: '```json\n[{"bbox_2d": [100, 200, 300, 400], "label": "icon"}]\n```',
    explicit: { box: [100, 200, 300, 400], units: 'permille' },
    expected: [256, 216],
  },
  {
    // TV7: viewport 1280x800 at DPR 2, frame image 2560x1600, client showed it 1024 wide; answer [900, 100]
    // px of the shown image -> frame px (2250, 250) -> CSS (1125, 125).
    name: 'TV7 openai-cua with shown_width',
    model: 'openai-cua',
    frame: frameOf([1280, 800], [2560, 1600], { devicePixelRatio: 2 }),
    output: '{"type": "click", "button": "left", "x": 900, "y": 100}',
    explicit: { x: 900, y: 100, units: 'px' },
    extra: { shown_width: 1024 },
    expected: [1125, 125],
  },
  {
    // TV8: 1920x1080 smart-resized to 1932x1092; [1000, 300] -> (1000/1932 * 1920, 300/1092 * 1080)
    // = (993.79, 296.70).
    name: 'TV8 qwen2.5-vl point_2d',
    model: 'qwen2.5-vl',
    frame: FHD,
    output: '{"point_2d": [1000, 300], "label": "search"}',
    explicit: { x: 1000, y: 300, units: 'px', shown_width: 1932, shown_height: 1092 },
    expected: [993.79, 296.7],
  },
  {
    // TV11: <|box_start|>(576,12),(592,42)<|box_end|> on 1920x1080: centre (584, 27) permille
    // -> (0.584 * 1920, 0.027 * 1080) = (1121.28, 29.16).
    name: 'TV11 qwen2-vl box tokens',
    model: 'qwen2-vl',
    frame: FHD,
    output: '<|object_ref_start|>the close button<|object_ref_end|><|box_start|>(576,12),(592,42)<|box_end|>',
    explicit: { box: [576, 12, 592, 42], units: 'permille' },
    expected: [1121.28, 29.16],
  },
  {
    name: 'TV11 os-atlas box tokens',
    model: 'os-atlas',
    frame: FHD,
    output: 'CLICK <|box_start|>(576,12),(592,42)<|box_end|>',
    explicit: { box: [576, 12, 592, 42], units: 'permille' },
    expected: [1121.28, 29.16],
  },
  {
    name: 'TV11 ui-tars (v1) box tokens in start_box',
    model: 'ui-tars',
    frame: FHD,
    output: "Thought: close it.\nAction: click(start_box='<|box_start|>(576,12),(592,42)<|box_end|>')",
    explicit: { box: [576, 12, 592, 42], units: 'permille' },
    expected: [1121.28, 29.16],
  },
  {
    // UI-TARS-1.5 on 1280x800: smart_resize(800, 1280, min 78 400) -> round(28.57)*28 = 812,
    // round(45.71)*28 = 1288 (1 045 856 px, in range). (644, 406) -> (644/1288 * 1280, 406/812 * 800) = (640, 400).
    name: 'ui-tars-1.5 start_box on the smart-resized grid',
    model: 'ui-tars-1.5',
    frame: frameOf([1280, 800]),
    output: "Thought: the Save button.\nAction: click(start_box='(644,406)')",
    explicit: { x: 644, y: 406, units: 'px', shown_width: 1288, shown_height: 812 },
    expected: [640, 400],
  },
  {
    // TV12a: Molmo percent: (61.5 %, 40.6 %) of 1024x768 -> (629.76, 311.81).
    name: 'TV12 molmo point',
    model: 'molmo',
    frame: frameOf([1024, 768]),
    output: ' <point x="61.5" y="40.6" alt="Submit">Submit</point>',
    explicit: { x: 61.5, y: 40.6, units: 'percent' },
    expected: [629.76, 311.808],
  },
  {
    // TV13: bins read at their centres: x (250.5 + 750.5)/2 / 1000 * 1280 = 640.64,
    // y (100.5 + 300.5)/2 / 1000 * 720 = 144.36 (plain k/1000 would give (640, 144)).
    name: 'TV13 florence-2 loc tokens',
    model: 'florence-2',
    frame: frameOf([1280, 720]),
    output: '</s><s>button<loc_250><loc_100><loc_750><loc_300></s>',
    explicit: { box: [250.5, 100.5, 750.5, 300.5], units: 'permille' },
    expected: [640.64, 144.36],
  },
  {
    // Claude docs: 1512x982 is sent as 1330x864 (scale sqrt(1 150 000 / 1 484 784) = 0.88007).
    // [665, 432] -> (665/1330 * 1512, 432/864 * 982) = (756, 491).
    name: 'claude computer-use coordinate',
    model: 'claude',
    frame: frameOf([1512, 982]),
    output: '{"action": "left_click", "coordinate": [665, 432]}',
    explicit: { x: 665, y: 432, units: 'px', shown_width: 1330, shown_height: 864 },
    expected: [756, 491],
  },
  {
    // Quickstart: 1920x1080 (ratio 1.7778) matches FWXGA 1366x768 (1.7786, within 0.02) and is larger, so the
    // model sees 1366x768. [1000, 200] -> (1000 * 1920/1366, 200 * 1080/768) = (1405.5637, 281.25).
    name: 'anthropic-quickstart FWXGA',
    model: 'anthropic-quickstart',
    frame: FHD,
    output: '{"action":"left_click","coordinate":[1000,200]}',
    explicit: { x: 1000, y: 200, units: 'px', shown_width: 1366, shown_height: 768 },
    expected: [1405.5637, 281.25],
  },
  {
    // SeeClick normalized tuple on 1280x800: (0.49 * 1280, 0.4 * 800) = (627.2, 320).
    name: 'seeclick tuple',
    model: 'seeclick',
    frame: frameOf([1280, 800]),
    output: '(0.49,0.40)',
    explicit: { x: 0.49, y: 0.4, units: 'normalized' },
    expected: [627.2, 320],
  },
  {
    name: 'showui array',
    model: 'showui',
    frame: frameOf([1280, 800]),
    output: '[0.49, 0.40]',
    explicit: { x: 0.49, y: 0.4, units: 'normalized' },
    expected: [627.2, 320],
  },
];

describe('presets: worked vectors', () => {
  for (const v of VECTORS) {
    it(`${v.name}: model_output`, () => {
      const r = resolveRequest({ model: v.model, model_output: v.output, ...v.extra }, v.frame);
      assertNear(r.css, v.expected);
      assert.equal(r.convention.model, v.model);
    });
    it(`${v.name}: explicit fields`, () => {
      const r = resolveRequest({ ...v.explicit, ...v.extra }, v.frame);
      assertNear(r.css, v.expected);
    });
  }

  it('covers every preset', () => {
    const tested = new Set(VECTORS.map((v) => v.model));
    assert.deepEqual(
      PRESET_NAMES.filter((n) => !tested.has(n)),
      [],
    );
  });

  it('reports the image point too (TV7: frame px (2250, 250))', () => {
    const v = VECTORS.find((x) => x.name.startsWith('TV7'));
    assert.ok(v);
    const r = resolveRequest({ model: v.model, model_output: v.output, shown_width: 1024 }, v.frame);
    assertNear(r.image ?? { x: Number.NaN, y: Number.NaN }, [2250, 250]);
    assert.equal(r.kind, 'point');
  });

  it('reports the convention applied: Gemini click_at is read x first', () => {
    const r = resolveRequest(
      { model: 'gemini', model_output: 'click_at(x=500, y=250)' },
      frameOf([1440, 900]),
    );
    assert.equal(r.convention.axis_order, 'xy');
    assert.equal(r.convention.units, 'permille');
    const p = resolveRequest(
      { model: 'gemini', model_output: '{"point": [500, 250]}' },
      frameOf([1440, 900]),
    );
    assert.equal(p.convention.axis_order, 'yx');
  });

  it('the naive pipeline misses TV7 (answer used as CSS px)', () => {
    const r = resolveRequest({ x: 900, y: 100, units: 'css' }, frameOf([1280, 800], [2560, 1600]));
    assertNear(r.css, [900, 100]);
  });

  it('a preset is only defaults: explicit units override it', () => {
    const r = resolveRequest({ model: 'claude', x: 0.5, y: 0.5, units: 'normalized' }, frameOf([1280, 800]));
    assertNear(r.css, [640, 400]);
    assert.equal(r.convention.resize, 'none');
  });
});
