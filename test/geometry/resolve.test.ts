// The canonical mapping with explicit convention fields: units, formats, axis order, origin, spaces, defaults.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conventionFor, resolveRequest } from '../../src/geometry/index.js';
import { assertNear, frameOf } from './helpers.js';

// 1280x800 viewport at DPR 2, frame image 2560x1600, scrolled to (0, 300), viewport 85 px below the screen top.
const F = frameOf([1280, 800], [2560, 1600], {
  devicePixelRatio: 2,
  scroll: { x: 0, y: 300 },
  windowOffset: { x: 0, y: 85 },
});

describe('resolveRequest: units', () => {
  it('defaults to px of the frame image: (2204, 1272) image px -> (1102, 636) CSS', () => {
    const r = resolveRequest({ x: 2204, y: 1272 }, F);
    assertNear(r.css, [1102, 636]);
    assertNear(r.image ?? { x: 0, y: 0 }, [2204, 1272]);
    assert.equal(r.convention.units, 'px');
    assert.equal(r.convention.space, 'image');
  });
  it('defaults to css viewport px without a frame', () => {
    const r = resolveRequest({ x: 1102, y: 636 });
    assertNear(r.css, [1102, 636]);
    assert.equal(r.convention.units, 'css');
    assert.equal(r.convention.space, 'viewport');
    assert.equal(r.image, undefined);
  });
  it('normalized / permille / percent are fractions of the image', () => {
    assertNear(resolveRequest({ x: 0.25, y: 0.5, units: 'normalized' }, F).css, [320, 400]);
    assertNear(resolveRequest({ x: 250, y: 500, units: 'permille' }, F).css, [320, 400]);
    assertNear(resolveRequest({ x: 25, y: 50, units: 'percent' }, F).css, [320, 400]);
  });
  it('scales each axis by its own ratio and keeps floats (fractional CSS viewport 1282.42 x 802.42)', () => {
    const frac = frameOf([1282.42, 802.42], [1924, 1204], { devicePixelRatio: 1.5 });
    const r = resolveRequest({ x: 962, y: 602 }, frac);
    assertNear(r.css, [(962 / 1924) * 1282.42, (602 / 1204) * 802.42], 1e-9);
  });
  it('shown_width alone keeps the aspect: 1024 wide shows 2560x1600 as 1024x640', () => {
    assertNear(resolveRequest({ x: 512, y: 320, shown_width: 1024 }, F).css, [640, 400]);
  });
  it('shown_height alone keeps the aspect too', () => {
    assertNear(resolveRequest({ x: 512, y: 320, shown_height: 640 }, F).css, [640, 400]);
  });
});

describe('resolveRequest: boxes', () => {
  it('xyxy, xywh and cxcywh of the same box resolve to its centre', () => {
    const forms = [
      { box: [100, 200, 300, 400], box_format: 'xyxy' as const },
      { box: [100, 200, 200, 200], box_format: 'xywh' as const },
      { box: [200, 300, 200, 200], box_format: 'cxcywh' as const },
    ];
    for (const f of forms) {
      const r = resolveRequest({ ...f, units: 'css' }, F);
      assertNear(r.css, [200, 300]);
      assert.equal(r.kind, 'box');
    }
  });
  it('axis_order yx swaps each pair of a box', () => {
    const r = resolveRequest({ box: [200, 100, 400, 300], axis_order: 'yx', units: 'css' }, F);
    assertNear(r.css, [200, 300]);
  });
});

describe('resolveRequest: origin and spaces', () => {
  it('bottom-left flips y in relative units: (0.5, 0.25) -> (640, 600)', () => {
    assertNear(
      resolveRequest({ x: 0.5, y: 0.25, units: 'normalized', origin: 'bottom-left' }, F).css,
      [640, 600],
    );
  });
  it('bottom-left flips y in image px', () => {
    assertNear(resolveRequest({ x: 1280, y: 400, origin: 'bottom-left' }, F).css, [640, 600]);
  });
  it('bottom-left flips y in CSS viewport px', () => {
    assertNear(resolveRequest({ x: 640, y: 200, units: 'css', origin: 'bottom-left' }, F).css, [640, 600]);
  });
  it('page space subtracts the scroll at capture: (100, 500) -> (100, 200)', () => {
    assertNear(resolveRequest({ x: 100, y: 500, units: 'css', space: 'page' }, F).css, [100, 200]);
  });
  it('screen space subtracts the window offset: (100, 185) -> (100, 100)', () => {
    assertNear(resolveRequest({ x: 100, y: 185, units: 'css', space: 'screen' }, F).css, [100, 100]);
  });
  it('screen space allows negative screen coordinates (a monitor left of the primary)', () => {
    const left = frameOf([1280, 800], [1280, 800], { windowOffset: { x: -1920, y: 0 } });
    assertNear(resolveRequest({ x: -1000, y: 50, units: 'css', space: 'screen' }, left).css, [920, 50]);
  });
  it('the image point follows the CSS point in every space', () => {
    const r = resolveRequest({ x: 100, y: 500, units: 'css', space: 'page' }, F);
    assertNear(r.image ?? { x: 0, y: 0 }, [200, 400]);
  });
});

describe('conventionFor', () => {
  it('fills defaults from the preset, then explicit fields', () => {
    const c = conventionFor({ model: 'qwen2.5-vl', shown_width: 1000 }, F);
    assert.deepEqual(c, {
      units: 'px',
      box_format: 'xyxy',
      axis_order: 'xy',
      origin: 'top-left',
      space: 'image',
      resize: 'qwen2.5-vl',
      quantization: 'none',
      model: 'qwen2.5-vl',
      shown_width: 1000,
    });
  });
  it('treats null like absent (JSON clients)', () => {
    const req = { x: 10, y: 20, units: null, box: null } as unknown as Parameters<typeof resolveRequest>[0];
    assertNear(resolveRequest(req, F).css, [5, 10]);
  });
});

describe('resolveRequest: the viewport edge', () => {
  // CI's property run found it (seed 1268320138): page x 0 at scroll x 1e-6 is viewport x -1e-6, inside the
  // float tolerance the range check allows, so the point must come back on the edge, never a hair outside.
  it('a point let through by the range tolerance comes back clamped into the viewport', () => {
    const f = frameOf([1000, 240], [125, 64], {
      devicePixelRatio: 0.5,
      scroll: { x: 0.0000010000000000000002, y: 0 },
    });
    const r = resolveRequest({ x: -0, y: 0, units: 'css', space: 'page' }, f);
    assert.ok(r.css.x >= 0 && r.css.x <= 1000, `x ${r.css.x}`);
    assert.ok(r.css.y >= 0 && r.css.y <= 240, `y ${r.css.y}`);
  });
});
