// SPEC S3 bad inputs: each one a typed GeometryError whose message says what to pass instead.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FrameGeometry, resolveRequest, type TargetRequest } from '../../src/geometry/index.js';
import { assertGeometryError, expectGeometryError, frameOf } from './helpers.js';

const F = frameOf([1280, 800], [2560, 1600], { devicePixelRatio: 2 });
const resolve =
  (req: unknown, frame: FrameGeometry = F) =>
  () =>
    resolveRequest(req as TargetRequest, frame);
const noFrame = (req: unknown) => () => resolveRequest(req as TargetRequest);

describe('bad numbers', () => {
  it('NaN', () => assertGeometryError(resolve({ x: Number.NaN, y: 5 }), 'NOT_FINITE', 'finite numbers'));
  it('+Infinity', () =>
    assertGeometryError(resolve({ x: 5, y: Number.POSITIVE_INFINITY }), 'NOT_FINITE', 'finite'));
  it('-Infinity in a box', () =>
    assertGeometryError(resolve({ box: [1, 2, Number.NEGATIVE_INFINITY, 4] }), 'NOT_FINITE', 'finite'));
  it('negative', () => assertGeometryError(resolve({ x: -3, y: 5 }), 'NEGATIVE', '>= 0'));
  it('a string where a number belongs', () =>
    assertGeometryError(resolve({ x: '12', y: 5 }), 'NOT_A_NUMBER', 'number'));
});

describe('outside the image or range', () => {
  it('px beyond the frame image', () =>
    assertGeometryError(resolve({ x: 2600, y: 100 }), 'OUT_OF_RANGE', 'shown_width'));
  it('px beyond the image as shown', () =>
    assertGeometryError(resolve({ x: 1100, y: 100, shown_width: 1024 }), 'OUT_OF_RANGE', '0..1024'));
  it('normalized above 1 suggests percent/permille', () =>
    assertGeometryError(resolve({ x: 45, y: 0.5, units: 'normalized' }), 'OUT_OF_RANGE', "units 'percent'"));
  it('permille above 1000 suggests px', () =>
    assertGeometryError(resolve({ x: 1500, y: 500, units: 'permille' }), 'OUT_OF_RANGE', "units 'px'"));
  it('percent above 100 suggests permille', () =>
    assertGeometryError(resolve({ x: 150, y: 50, units: 'percent' }), 'OUT_OF_RANGE', "'permille'"));
  it('florence bins above 999', () =>
    assertGeometryError(
      resolve({ model: 'florence-2', model_output: '<loc_1000><loc_5>' }),
      'OUT_OF_RANGE',
      '0..999',
    ));
  it('css outside the viewport', () =>
    assertGeometryError(resolve({ x: 1300, y: 100, units: 'css' }), 'OUT_OF_RANGE', "space 'page'"));
  it('page coordinates that are not in the viewport at capture', () =>
    assertGeometryError(resolve({ x: 10, y: 2000, units: 'css', space: 'page' }), 'OUT_OF_RANGE', 'Scroll'));
  it('a box hanging off the image', () =>
    assertGeometryError(
      resolve({ box: [0.9, 0.5, 0.3, 0.2], units: 'normalized', box_format: 'cxcywh' }),
      'OUT_OF_RANGE',
      '0..1',
    ));
});

describe('targets', () => {
  it('x/y and box at once', () =>
    assertGeometryError(resolve({ x: 1, y: 2, box: [1, 2, 3, 4] }), 'TWO_TARGETS', 'exactly one target'));
  it('model_output and x at once', () =>
    assertGeometryError(
      resolve({ x: 100, model: 'gemini', model_output: '[1,2]' }),
      'TWO_TARGETS',
      'exactly one',
    ));
  it('no target', () => assertGeometryError(resolve({ units: 'px' }), 'NO_TARGET', 'x and y'));
  it('x without y', () => assertGeometryError(resolve({ x: 100 }), 'INCOMPLETE_POINT', 'both x and y'));
  it('a box of 3 numbers', () => assertGeometryError(resolve({ box: [1, 2, 3] }), 'BOX_LENGTH', '4 numbers'));
  it('a box of 2 numbers is a point', () =>
    assertGeometryError(resolve({ box: [10, 20] }), 'BOX_LENGTH', 'x and y'));
  it('a box that is not a list', () =>
    assertGeometryError(resolve({ box: '1,2,3,4' }), 'BOX_LENGTH', '4 numbers'));
  it('xyxy with x2 < x1', () =>
    assertGeometryError(resolve({ box: [300, 100, 200, 400] }), 'BOX_INVERTED', "box_format 'xywh'"));
  it('xyxy with y2 < y1', () =>
    assertGeometryError(resolve({ box: [100, 400, 200, 300] }), 'BOX_INVERTED', "axis_order 'yx'"));
  it('xywh with zero width', () =>
    assertGeometryError(
      resolve({ box: [100, 100, 0, 50], box_format: 'xywh' }),
      'BOX_EMPTY',
      "box_format 'xyxy'",
    ));
  it('cxcywh with zero height', () =>
    assertGeometryError(
      resolve({ box: [100, 100, 50, 0], box_format: 'cxcywh' }),
      'BOX_EMPTY',
      'positive width',
    ));
  it('model_output without model', () =>
    assertGeometryError(resolve({ model_output: '[100, 200]' }), 'MODEL_REQUIRED', 'Pass model'));
  it('a request that is not an object', () =>
    assertGeometryError(resolve('click it'), 'BAD_REQUEST', 'Pass an object'));
});

describe('conventions', () => {
  it('all values <= 1 with units px looks normalized', () =>
    assertGeometryError(resolve({ x: 0.42, y: 0.7 }), 'LOOKS_NORMALIZED', "units 'normalized'"));
  it('a px box of fractions looks normalized', () =>
    assertGeometryError(
      resolve({ box: [0.1, 0.2, 0.3, 0.4], units: 'px' }),
      'LOOKS_NORMALIZED',
      "'normalized'",
    ));
  it('unknown preset', () =>
    assertGeometryError(resolve({ model: 'gpt-9', x: 1, y: 2 }), 'UNKNOWN_PRESET', "'gemini'"));
  it('unknown units', () =>
    assertGeometryError(resolve({ units: 'pixels', x: 1, y: 2 }), 'UNKNOWN_OPTION', "'px'"));
  it('unknown box_format', () =>
    assertGeometryError(resolve({ box_format: 'ltrb', box: [1, 2, 3, 4] }), 'UNKNOWN_OPTION', "'xywh'"));
  it('unknown axis_order', () =>
    assertGeometryError(resolve({ axis_order: 'YX', x: 1, y: 2 }), 'UNKNOWN_OPTION', "'yx'"));
  it('unknown origin', () =>
    assertGeometryError(resolve({ origin: 'center', x: 1, y: 2 }), 'UNKNOWN_OPTION', "'bottom-left'"));
  it('unknown space', () =>
    assertGeometryError(resolve({ space: 'world', x: 1, y: 2 }), 'UNKNOWN_OPTION', "'viewport'"));
  it('image units in a CSS space', () =>
    assertGeometryError(
      resolve({ units: 'px', space: 'viewport', x: 10, y: 20 }),
      'SPACE_MISMATCH',
      "units 'css'",
    ));
  it('css units in image space', () =>
    assertGeometryError(
      resolve({ units: 'css', space: 'image', x: 10, y: 20 }),
      'SPACE_MISMATCH',
      "space 'viewport'",
    ));
  it('bottom-left in page space', () =>
    assertGeometryError(
      resolve({ units: 'css', space: 'page', origin: 'bottom-left', x: 10, y: 20 }),
      'SPACE_MISMATCH',
      "space 'viewport'",
    ));
  it('shown_width <= 0', () =>
    assertGeometryError(resolve({ x: 10, y: 20, shown_width: 0 }), 'BAD_SHOWN_SIZE', 'Pass shown_width'));
  it('shown_width NaN', () =>
    assertGeometryError(resolve({ x: 10, y: 20, shown_width: Number.NaN }), 'BAD_SHOWN_SIZE', 'omit it'));
  it('px without a frame', () =>
    assertGeometryError(noFrame({ x: 10, y: 20, units: 'px' }), 'FRAME_REQUIRED', "units 'css'"));
  it('a preset in image units without a frame', () =>
    assertGeometryError(noFrame({ model: 'gemini', model_output: '[1,2]' }), 'FRAME_REQUIRED', 'frame'));
  it('page space without a frame', () =>
    assertGeometryError(noFrame({ x: 10, y: 20, units: 'css', space: 'page' }), 'FRAME_REQUIRED', 'frame'));
  it('bottom-left CSS px without a frame', () =>
    assertGeometryError(
      noFrame({ x: 10, y: 20, units: 'css', origin: 'bottom-left' }),
      'FRAME_REQUIRED',
      'from the top',
    ));
  it('screen space without a window offset', () =>
    assertGeometryError(
      resolve({ x: 10, y: 20, units: 'css', space: 'screen' }),
      'WINDOW_OFFSET_REQUIRED',
      "'viewport'",
    ));
  it('a malformed frame', () => {
    const bad = { ...F, css: { width: 0, height: 800 } };
    assertGeometryError(resolve({ x: 10, y: 20 }, bad), 'BAD_FRAME', 'browser_screenshot');
  });
});

describe('error shape', () => {
  it('names the field and keeps problem + hint in the message', () => {
    const e = expectGeometryError(
      resolve({ x: 10, y: 20, shown_width: -5 }),
      'BAD_SHOWN_SIZE',
      'shown_width',
    );
    assert.equal(e.field, 'shown_width');
    assert.equal(e.name, 'GeometryError');
    assert.ok(e.message.startsWith('shown_width -5'));
    assert.equal(e.message, `${e.problem} ${e.hint}`);
  });
});
