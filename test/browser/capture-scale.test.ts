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
      fc.boolean(),
      (cssW, cssH, dpr, windowAt1) => {
        const deviceW = cssW * dpr;
        const deviceH = cssH * dpr;
        const s = captureScale(deviceW, deviceH, {}, windowAt1 ? 1 / dpr : undefined);
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

test("in a window that draws at 1, a DPR 2 capture is taken at the window's ratio when that keeps most of the budget", () => {
  // 1280×800 CSS px at 2: the 1280×800 image keeps 89 % of the pixels of the 1356×848 one.
  assert.equal(captureScale(2560, 1600, {}, 0.5), 0.5);
  // 1024×768 at 2: its 1024×768 image would keep 67 %; 1440×900 at 2 does not fit the budget at 1.
  assert.ok(captureScale(2048, 1536, {}, 0.5) > 0.5);
  assert.ok(captureScale(2880, 1800, {}, 0.5) < 0.5);
  // Full resolution asked for, or a window at the page's own ratio: no change.
  assert.equal(captureScale(2560, 1600, { maxImageEdge: 0 }, 0.5), 1);
  assert.equal(captureScale(2560, 1600, {}, 1), captureScale(2560, 1600, {}));
});
