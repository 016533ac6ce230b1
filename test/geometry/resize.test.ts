// Provider resize rules against their published numbers (expected sizes re-computed with the Python originals).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  anthropicQuickstartTarget,
  applyResize,
  claudeResize,
  pythonRound,
  qwen3VlResize,
  qwenSmartResize,
  uiTars15Resize,
} from '../../src/geometry/index.js';
import { assertGeometryError } from './helpers.js';

describe('claudeResize', () => {
  it('matches the docs: 1512x982 -> 1330x864', () => {
    const r = claudeResize(1512, 982);
    assert.deepEqual([r.width, r.height], [1330, 864]);
  });
  it('leaves images inside both limits alone', () => {
    assert.deepEqual(claudeResize(1280, 800), { width: 1280, height: 800, scale: 1 });
  });
  it('is bound by the 1.15 MP budget at DPR 2: 2560x1600 -> 1356x847', () => {
    const r = claudeResize(2560, 1600);
    assert.deepEqual([r.width, r.height], [1356, 847]);
  });
  it('is bound by the long edge for wide strips: 3000x300 -> 1567x156, as Python int() of the float gives', () => {
    // 1568 / 3000 * 3000 = 1567.9999999999998 in IEEE doubles, in Python as in JS.
    const r = claudeResize(3000, 300);
    assert.deepEqual([r.width, r.height], [1567, 156]);
  });
  it('sends every 16:9 screen from 1920x1080 up as 1429x804', () => {
    for (const [w, h] of [
      [1920, 1080],
      [2560, 1440],
      [3840, 2160],
    ] as const) {
      const r = claudeResize(w, h);
      assert.deepEqual([r.width, r.height], [1429, 804]);
    }
  });
  it('is idempotent: a resized image is not resized again', () => {
    const r = claudeResize(2560, 1600);
    assert.equal(claudeResize(r.width, r.height).scale, 1);
  });
  it('rejects sizes that are not positive', () => {
    assertGeometryError(() => claudeResize(0, 10), 'BAD_SIZE', 'image size');
  });
});

describe('anthropicQuickstartTarget', () => {
  it('picks XGA / WXGA / FWXGA by aspect within 0.02', () => {
    assert.equal(anthropicQuickstartTarget(2048, 1536)?.name, 'XGA');
    assert.equal(anthropicQuickstartTarget(2560, 1600)?.name, 'WXGA');
    assert.equal(anthropicQuickstartTarget(1920, 1080)?.name, 'FWXGA');
  });
  it('does not scale up or match other aspects', () => {
    assert.equal(anthropicQuickstartTarget(1024, 768), null);
    assert.equal(anthropicQuickstartTarget(1000, 1000), null);
  });
  it('is what applyResize uses', () => {
    assert.deepEqual(applyResize('anthropic-quickstart', 1920, 1080), {
      width: 1366,
      height: 768,
      name: 'FWXGA',
    });
    assert.deepEqual(applyResize('anthropic-quickstart', 1000, 1000), { width: 1000, height: 1000 });
  });
});

describe('qwenSmartResize (QwenLM vision_process.py)', () => {
  it('TV8: 1920x1080 -> 1932x1092', () => {
    assert.deepEqual(qwenSmartResize(1080, 1920), { width: 1932, height: 1092 });
  });
  it('rounds ties to even like Python: 70x70 -> 56x56 (Math.round would give 84)', () => {
    assert.equal(pythonRound(2.5), 2);
    assert.equal(pythonRound(3.5), 4);
    assert.equal(pythonRound(2.4999), 2);
    assert.deepEqual(qwenSmartResize(70, 70), { width: 56, height: 56 });
  });
  it('shrinks over max_pixels with beta and floor: 3840x2160, max 1280*28*28 -> 1316x728', () => {
    assert.deepEqual(qwenSmartResize(2160, 3840, { maxPixels: 1280 * 28 * 28 }), {
      width: 1316,
      height: 728,
    });
  });
  it('grows under min_pixels with beta and ceil (UI-TARS-1.5 min 78 400): 200x150 -> 336x252', () => {
    assert.deepEqual(uiTars15Resize(150, 200), { width: 336, height: 252 });
  });
  it('UI-TARS-1.5: 1280x800 -> 1288x812', () => {
    assert.deepEqual(uiTars15Resize(800, 1280), { width: 1288, height: 812 });
  });
  it('Qwen3-VL uses factor 32: 1920x1080 -> 1920x1088', () => {
    assert.deepEqual(qwen3VlResize(1080, 1920), { width: 1920, height: 1088 });
  });
  it('refuses aspect ratios over 200 as the original does', () => {
    assertGeometryError(() => qwenSmartResize(10, 2500), 'ASPECT_TOO_EXTREME', 'crop');
  });
});
