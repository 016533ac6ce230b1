// Property tests: CSS -> convention -> CSS is the identity for every convention and preset on random frames,
// and no input whatsoever makes the geometry layer throw anything but a GeometryError.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  AXIS_ORDERS,
  BOX_FORMATS,
  type Convention,
  conventionFor,
  type FrameGeometry,
  GeometryError,
  ORIGINS,
  PRESET_NAMES,
  parseModelOutput,
  resolveRequest,
  type TargetRequest,
  toConvention,
  toConventionBox,
  UNITS,
} from '../../src/geometry/index.js';

const RUNS = 300;

const frameArb: fc.Arbitrary<FrameGeometry> = fc
  .record({
    cssW: fc.double({ min: 320, max: 3000, noNaN: true }),
    cssH: fc.double({ min: 240, max: 2000, noNaN: true }),
    dpr: fc.oneof(
      fc.constantFrom(1, 1.25, 1.5, 1.65, 1.75, 2, 2.5, 3),
      fc.double({ min: 0.5, max: 4, noNaN: true }),
    ),
    // A server or client downscale of the device-pixel capture.
    shrink: fc.double({ min: 0.25, max: 1, noNaN: true }),
    scrollX: fc.double({ min: 0, max: 5000, noNaN: true }),
    scrollY: fc.double({ min: 0, max: 50000, noNaN: true }),
    offX: fc.double({ min: -3000, max: 3000, noNaN: true }),
    offY: fc.double({ min: 0, max: 300, noNaN: true }),
  })
  .map((r) => ({
    image: {
      width: Math.max(64, Math.round(r.cssW * r.dpr * r.shrink)),
      height: Math.max(64, Math.round(r.cssH * r.dpr * r.shrink)),
    },
    css: { width: r.cssW, height: r.cssH },
    scroll: { x: r.scrollX, y: r.scrollY },
    windowOffset: { x: r.offX, y: r.offY },
    devicePixelRatio: r.dpr,
  }));

/** Every valid combination of explicit convention fields (image units live in image space; css in the others). */
const EXPLICIT: TargetRequest[] = UNITS.flatMap((units) =>
  (units === 'css' ? (['viewport', 'page', 'screen'] as const) : (['image'] as const)).flatMap((space) =>
    BOX_FORMATS.flatMap((box_format) =>
      AXIS_ORDERS.flatMap((axis_order) =>
        ORIGINS.filter((origin) => units !== 'css' || space === 'viewport' || origin === 'top-left').map(
          (origin): TargetRequest => ({ units, space, box_format, axis_order, origin }),
        ),
      ),
    ),
  ),
);
const PRESET_REQUESTS: TargetRequest[] = PRESET_NAMES.map((model) => ({ model }));
const ALL = [...EXPLICIT, ...PRESET_REQUESTS];

const shownArb = fc.option(fc.integer({ min: 200, max: 3000 }), { nil: undefined });

/** Half a Florence-2 bin in CSS px on the wider axis: the quantisation error the preset cannot avoid. */
function tolerance(c: Convention, f: FrameGeometry): number {
  return c.quantization === 'bin-centre' ? (0.5 / 1000) * Math.max(f.css.width, f.css.height) + 1e-9 : 0.01;
}

function looksNormalized(c: Convention, values: number[]): boolean {
  return c.units === 'px' && values.every((v) => v <= 1);
}

describe('round trip CSS -> convention -> CSS', () => {
  it(`points, ${ALL.length} conventions incl. every preset`, () => {
    fc.assert(
      fc.property(
        frameArb,
        fc.constantFrom(...ALL),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        shownArb,
        (frame, base, u, v, shown) => {
          const req: TargetRequest = { ...base, ...(shown === undefined ? {} : { shown_width: shown }) };
          const c = conventionFor(req, frame);
          const css = { x: u * frame.css.width, y: v * frame.css.height };
          const [a = 0, b = 0] = toConvention(css, c, frame);
          fc.pre(!looksNormalized(c, [a, b]));
          const r = resolveRequest({ ...req, x: a, y: b }, frame);
          const tol = tolerance(c, frame);
          assert.ok(
            Math.abs(r.css.x - css.x) <= tol && Math.abs(r.css.y - css.y) <= tol,
            JSON.stringify({ css, r }),
          );
        },
      ),
      { numRuns: RUNS * 3 },
    );
  });

  it('boxes in every box_format resolve to their centre', () => {
    fc.assert(
      fc.property(
        frameArb,
        fc.constantFrom(...ALL),
        fc.tuple(
          fc.double({ min: 0, max: 0.9, noNaN: true }),
          fc.double({ min: 0.05, max: 0.1, noNaN: true }),
        ),
        fc.tuple(
          fc.double({ min: 0, max: 0.9, noNaN: true }),
          fc.double({ min: 0.05, max: 0.1, noNaN: true }),
        ),
        shownArb,
        (frame, base, [u, du], [v, dv], shown) => {
          const req: TargetRequest = { ...base, ...(shown === undefined ? {} : { shown_width: shown }) };
          const c = conventionFor(req, frame);
          const box = {
            left: u * frame.css.width,
            right: (u + du) * frame.css.width,
            top: v * frame.css.height,
            bottom: (v + dv) * frame.css.height,
          };
          const values = toConventionBox(box, c, frame);
          fc.pre(!looksNormalized(c, values));
          const r = resolveRequest({ ...req, box: values }, frame);
          const tol = tolerance(c, frame) * 2;
          const cx = (box.left + box.right) / 2;
          const cy = (box.top + box.bottom) / 2;
          assert.ok(
            Math.abs(r.css.x - cx) <= tol && Math.abs(r.css.y - cy) <= tol,
            JSON.stringify({ box, r }),
          );
          assert.equal(r.kind, 'box');
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });
});

function onlyGeometryErrors(f: () => unknown): void {
  try {
    f();
  } catch (err) {
    assert.ok(err instanceof GeometryError, `untyped error: ${String(err)}`);
  }
}

/** Strings made of the pieces grammars look for, so random inputs reach deep into the parsers. */
const fragmentString = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '[',
        ']',
        '(',
        ')',
        ',',
        ' ',
        '<loc_',
        '>',
        '<|box_start|>',
        '<|box_end|>',
        '<box>',
        '</box>',
        '<point>',
        '</point>',
        '<point x="',
        '" y="',
        '"',
        "'",
        'x=',
        'y=',
        '"x":',
        '"y":',
        'box_2d',
        'bbox_2d',
        ':',
        "start_box='",
        "end_box='",
        'pyautogui.click(',
        'click_at(',
        '```json\n',
        '{',
        '}',
        '-',
        '.',
        'e',
      ),
      fc.double().map(String),
      fc.integer({ min: -5, max: 2000 }).map(String),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('nothing throws untyped errors', () => {
  it('random strings into every parser', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRESET_NAMES), fc.oneof(fc.string(), fragmentString), (preset, text) => {
        onlyGeometryErrors(() => {
          const r = parseModelOutput(preset, text);
          assert.ok(r.values.length === 2 || r.values.length === 4);
        });
      }),
      { numRuns: RUNS * 5 },
    );
  });

  const num = fc.oneof(
    fc.double(),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, -1, 0.5, 1e308),
    fc.integer({ min: -10, max: 5000 }),
  );
  const field = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const requestArb = fc.record(
    {
      x: field(fc.oneof(num, fc.anything())),
      y: field(num),
      box: field(fc.oneof(fc.array(num, { maxLength: 6 }), fc.anything())),
      model: field(fc.oneof(fc.constantFrom(...PRESET_NAMES), fc.string())),
      model_output: field(fc.oneof(fragmentString, fc.anything())),
      units: field(fc.oneof(fc.constantFrom(...UNITS), fc.string())),
      box_format: field(fc.constantFrom(...BOX_FORMATS, 'ltrb')),
      axis_order: field(fc.constantFrom(...AXIS_ORDERS)),
      origin: field(fc.constantFrom(...ORIGINS)),
      space: field(fc.constantFrom('image', 'viewport', 'page', 'screen', 'world')),
      shown_width: field(num),
      shown_height: field(num),
    },
    { requiredKeys: [] },
  );

  it('random requests and frames: a GeometryError or a point inside the viewport', () => {
    fc.assert(
      fc.property(requestArb, fc.option(frameArb, { nil: undefined }), (req, frame) => {
        onlyGeometryErrors(() => {
          const r = resolveRequest(req as TargetRequest, frame);
          assert.ok(Number.isFinite(r.css.x) && Number.isFinite(r.css.y));
          if (frame !== undefined) {
            const eps = 1e-6;
            assert.ok(r.css.x >= -eps && r.css.x <= frame.css.width + eps, `x ${r.css.x} outside`);
            assert.ok(r.css.y >= -eps && r.css.y <= frame.css.height + eps, `y ${r.css.y} outside`);
          }
        });
      }),
      { numRuns: RUNS * 5 },
    );
  });

  const oneTargetArb = fc.record({
    target: fc.oneof(
      fc.record({ x: num, y: num }),
      fc.record({ box: fc.array(num, { minLength: 4, maxLength: 4 }) }),
      fc.record({
        box: fc.array(fc.double({ min: 0, max: 3000, noNaN: true }), { minLength: 4, maxLength: 4 }),
      }),
    ),
    base: fc.constantFrom(...ALL),
    shown: shownArb,
  });

  it('one target of random numbers in every convention: a GeometryError or a point inside the viewport', () => {
    let resolved = 0;
    fc.assert(
      fc.property(oneTargetArb, frameArb, ({ target, base, shown }, frame) => {
        onlyGeometryErrors(() => {
          const req = { ...base, ...target, ...(shown === undefined ? {} : { shown_width: shown }) };
          const r = resolveRequest(req, frame);
          resolved++;
          const eps = 1e-6;
          assert.ok(r.css.x >= -eps && r.css.x <= frame.css.width + eps, `x ${r.css.x} outside`);
          assert.ok(r.css.y >= -eps && r.css.y <= frame.css.height + eps, `y ${r.css.y} outside`);
        });
      }),
      { numRuns: RUNS * 5 },
    );
    // Guards the property itself: most runs must get through to a point, or it would only test refusals.
    assert.ok(resolved > RUNS / 2, `only ${resolved} requests resolved`);
  });

  it('anything at all as request and frame', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (req, frame) => {
        onlyGeometryErrors(() => resolveRequest(req as TargetRequest, frame as FrameGeometry));
      }),
      { numRuns: RUNS * 2 },
    );
  });
});
