import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { captureScale } from '../../src/browser/snapshot/capture.js';
import { claudeResize } from '../../src/geometry/index.js';

// SPEC S2: the image the model sees is the image we sent, so Claude's resize must leave it alone.
test('the capture size is one Claude keeps as it is, for any viewport and devicePixelRatio', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 320, max: 4000 }),
      fc.integer({ min: 320, max: 3000 }),
      fc.constantFrom(1, 1.25, 1.5, 1.65, 1.75, 2, 2.5, 3),
      (cssW, cssH, dpr) => {
        const deviceW = cssW * dpr;
        const deviceH = cssH * dpr;
        const s = captureScale(deviceW, deviceH, {});
        // Chromium's output: the clip in device px times the scale, rounded.
        const w = Math.round(deviceW * s);
        const h = Math.round(deviceH * s);
        const c = claudeResize(w, h);
        assert.deepEqual([c.width, c.height], [w, h], `${cssW}×${cssH}@${dpr} → ${w}×${h}`);
        assert.ok(s <= 1);
      },
    ),
    { numRuns: 2000 },
  );
});

test('a fractional device size that fits only before rounding is scaled (found by the property above)', () => {
  // 791×646 CSS px at devicePixelRatio 1.5: 1186.5×969 device px fit 1.15 MP, the 1187×969 image does not.
  const s = captureScale(1186.5, 969, {});
  const [w, h] = [Math.round(1186.5 * s), Math.round(969 * s)];
  assert.ok(s < 1);
  const c = claudeResize(w, h);
  assert.deepEqual([c.width, c.height], [w, h]);
});

test('max_width caps the width; --max-image-edge 0 keeps full resolution', () => {
  assert.equal(captureScale(2560, 1600, { maxImageEdge: 0 }), 1);
  assert.ok(Math.round(2560 * captureScale(2560, 1600, { maxWidth: 1000 })) <= 1000);
});
