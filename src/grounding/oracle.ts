// The oracle: a target's true CSS box (read from the page, never from trueclick's own conversion) turned into
// what a model family would answer about the image it was shown, written as that family's raw output text so
// trueclick's parser is exercised too. The numbers come from the geometry core's inverse (toConvention /
// toConventionBox) on a frame built from ground truth, and are checked against a second, hand-written reading
// of each family's convention (research/conventions.md section 1), so a preset that drifted from its family
// (units, axis order, resize rule) shows up as an oracle disagreement instead of cancelling out.

import type { ClickRequest } from '../actions/verbs/click.js';
import {
  anthropicQuickstartTarget,
  type Convention,
  type CssBox,
  claudeResize,
  type FrameGeometry,
  type PresetName,
  presetFor,
  qwenSmartResize,
  type Size,
  toConvention,
  toConventionBox,
  uiTars15Resize,
  type XY,
} from '../geometry/index.js';

/** How a family writes one answer: a point or a box, in which text form, rounded how. */
interface Family {
  kind: 'point' | 'box';
  /** Units and axis order as the family's documentation states them, independent of PRESETS. */
  units: 'px' | 'permille' | 'percent' | 'normalized' | 'bins';
  yx?: boolean;
  /** The provider's resize of the shown image (px families). */
  resize?: (w: number, h: number) => Size;
  /** Decimals the family writes. */
  decimals: number;
  render: (v: number[]) => string;
}

const LABEL = 'the target button';

const FAMILIES: Partial<Record<PresetName, Family>> = {
  claude: {
    kind: 'point',
    units: 'px',
    resize: (w, h) => claudeResize(w, h),
    decimals: 0,
    render: ([x, y]) => `I'll click the button.\n{"action": "left_click", "coordinate": [${x}, ${y}]}`,
  },
  'anthropic-quickstart': {
    kind: 'point',
    units: 'px',
    resize: (w, h) => anthropicQuickstartTarget(w, h) ?? { width: w, height: h },
    decimals: 0,
    render: ([x, y]) => `{"action": "left_click", "coordinate": [${x}, ${y}]}`,
  },
  'openai-cua': {
    kind: 'point',
    units: 'px',
    decimals: 0,
    render: ([x, y]) => `{"type": "click", "button": "left", "x": ${x}, "y": ${y}}`,
  },
  gemini: {
    kind: 'box',
    units: 'permille',
    yx: true,
    decimals: 0,
    render: ([a, b, c, d]) =>
      `\`\`\`json\n[{"box_2d": [${a}, ${b}, ${c}, ${d}], "label": "${LABEL}"}]\n\`\`\``,
  },
  'qwen2-vl': {
    kind: 'box',
    units: 'permille',
    decimals: 0,
    render: ([a, b, c, d]) =>
      `<|object_ref_start|>${LABEL}<|object_ref_end|><|box_start|>(${a},${b}),(${c},${d})<|box_end|>`,
  },
  'qwen2.5-vl': {
    kind: 'box',
    units: 'px',
    resize: (w, h) => qwenSmartResize(h, w),
    decimals: 0,
    render: ([a, b, c, d]) =>
      `\`\`\`json\n[\n  {"bbox_2d": [${a}, ${b}, ${c}, ${d}], "label": "${LABEL}"}\n]\n\`\`\``,
  },
  'qwen3-vl': {
    kind: 'point',
    units: 'permille',
    decimals: 0,
    render: ([x, y]) => `{"point_2d": [${x}, ${y}], "label": "${LABEL}"}`,
  },
  'ui-tars': {
    kind: 'point',
    units: 'permille',
    decimals: 0,
    render: ([x, y]) =>
      `Thought: The button is at the edge of the page.\nAction: click(start_box='(${x},${y})')`,
  },
  'ui-tars-1.5': {
    kind: 'point',
    units: 'px',
    resize: (w, h) => uiTars15Resize(h, w),
    decimals: 0,
    render: ([x, y]) => `Thought: I click the button.\nAction: click(point='<point>${x} ${y}</point>')`,
  },
  molmo: {
    kind: 'point',
    units: 'percent',
    decimals: 1,
    render: ([x, y]) => ` <point x="${x}" y="${y}" alt="${LABEL}">${LABEL}</point>`,
  },
  'florence-2': {
    kind: 'box',
    units: 'bins',
    decimals: 0,
    render: ([a, b, c, d]) => `${LABEL}<loc_${a}><loc_${b}><loc_${c}><loc_${d}>`,
  },
  seeclick: {
    kind: 'point',
    units: 'normalized',
    decimals: 2,
    render: ([x, y]) => `(${x},${y})`,
  },
  showui: {
    kind: 'point',
    units: 'normalized',
    decimals: 2,
    render: ([x, y]) => `[${x}, ${y}]`,
  },
  'os-atlas': {
    kind: 'box',
    units: 'permille',
    decimals: 0,
    render: ([a, b, c, d]) => `<|box_start|>(${a},${b}),(${c},${d})<|box_end|>`,
  },
};

/** A preset the oracle has no family entry for: a generic [x, y] in its own units (every parser reads that). */
function genericFamily(preset: PresetName): Family {
  return {
    kind: 'point',
    units: 'px',
    decimals: presetFor(preset).convention.units === 'px' ? 0 : 3,
    render: ([x, y]) => `[${x}, ${y}]`,
  };
}

export interface Answer {
  /** The model's raw output text, as passed to trueclick in model_output. */
  text: string;
  kind: 'point' | 'box';
  /** The numbers as written in the text (rounded as the family writes them). */
  values: number[];
  /** The naive pipeline's click: the written numbers, x first, a box reduced to its centre, used as CSS px. */
  naive: XY;
  /** Set when the hand-written reading of the family disagrees with the geometry core's inverse. */
  disagreement?: string;
}

function round(v: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(v * f) / f;
}

/** The CSS point -> value on one axis by the family's documented reading (fraction of the image it saw). */
function byHand(f: Family, u: number, extent: number): number {
  switch (f.units) {
    case 'px':
      return u * extent;
    case 'permille':
      return u * 1000;
    case 'percent':
      return u * 100;
    case 'normalized':
      return u;
    case 'bins':
      return Math.min(999, Math.max(0, Math.floor(u * 1000)));
  }
}

/**
 * What `preset`'s model would answer for the element at CSS `box` (viewport-relative), on the image `truth`
 * describes, shown to the model at `shown` (integer px; undefined = as sent).
 */
export function oracleAnswer(preset: PresetName, box: CssBox, truth: FrameGeometry, shown?: Size): Answer {
  const family = FAMILIES[preset] ?? genericFamily(preset);
  const convention: Convention = { ...presetFor(preset).convention };
  if (shown) {
    convention.shown_width = shown.width;
    convention.shown_height = shown.height;
  }
  const centre = { x: (box.left + box.right) / 2, y: (box.top + box.bottom) / 2 };
  const exact =
    family.kind === 'box' ? toConventionBox(box, convention, truth) : toConvention(centre, convention, truth);

  let disagreement: string | undefined;
  if (FAMILIES[preset]) {
    const seen = shown ?? truth.image;
    const model = family.resize ? family.resize(seen.width, seen.height) : seen;
    const corners = family.kind === 'box' ? [box.left, box.top, box.right, box.bottom] : [centre.x, centre.y];
    const hand: number[] = [];
    for (let i = 0; i < corners.length; i += 2) {
      const x = byHand(family, (corners[i] ?? 0) / truth.css.width, model.width);
      const y = byHand(family, (corners[i + 1] ?? 0) / truth.css.height, model.height);
      hand.push(...(family.yx ? [y, x] : [x, y]));
    }
    const tol = family.units === 'bins' ? 1 : 1e-6 * Math.max(1, ...hand.map(Math.abs));
    if (hand.some((h, i) => Math.abs(h - (exact[i] ?? Number.NaN)) > tol)) {
      disagreement = `${preset}: the geometry core writes [${exact.map((v) => round(v, 3)).join(', ')}], the family's documented convention [${hand.map((v) => round(v, 3)).join(', ')}] (model image ${model.width}x${model.height})`;
    }
  }

  const values = exact.map((v) => round(v, family.decimals));
  const xFirst = family.yx || convention.axis_order === 'yx' ? swapPairs(values) : values;
  const naive =
    xFirst.length === 4
      ? { x: ((xFirst[0] ?? 0) + (xFirst[2] ?? 0)) / 2, y: ((xFirst[1] ?? 0) + (xFirst[3] ?? 0)) / 2 }
      : { x: xFirst[0] ?? 0, y: xFirst[1] ?? 0 };
  const answer: Answer = { text: family.render(values), kind: family.kind, values, naive };
  if (disagreement) answer.disagreement = disagreement;
  return answer;
}

function swapPairs(v: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < v.length; i += 2) out.push(v[i + 1] ?? 0, v[i] ?? 0);
  return out;
}

/**
 * Which image the server sent and what the client did to it before the model saw it.
 * none: trueclick's default image (downscaled at capture to long edge <= 1568, <= 1.15 MP), shown as sent.
 * full: full device resolution (maxImageEdge 0), shown as sent (as chrome-devtools-mcp's screenshots are).
 * client-1568: full device resolution, shrunk by the client to long edge <= 1568 (shown_width passed).
 * shown-1000: trueclick's default image, shown 1000 px wide (shown_width passed).
 */
export const DOWNSCALES = ['none', 'full', 'client-1568', 'shown-1000'] as const;
/** How the model saw the screenshot: one of DOWNSCALES. */
export type Downscale = (typeof DOWNSCALES)[number];
/** Whether a downscale mode starts from the full-resolution image (a session with maxImageEdge 0). */
export function fromFullResolution(d: Downscale): boolean {
  return d === 'full' || d === 'client-1568';
}
/** Long edge a client shrinks a full-resolution image to (Claude's limit). */
export const CLIENT_LONG_EDGE = 1568;
export const SHOWN_WIDTH = 1000;

/** The page when a frame was taken, read from the page itself: viewport (CSS px), scroll, devicePixelRatio. */
export interface World {
  w: number;
  h: number;
  sx: number;
  sy: number;
  dpr: number;
}

/**
 * What a model family answers for a target's true box on a frame it saw after `downscale`, as the click
 * request an agent sends trueclick (its raw output, and shown_width when the client resized the image), with
 * the size the client showed the image at (undefined: as sent).
 */
export function modelRequest(o: {
  preset: PresetName;
  box: CssBox;
  image: Size;
  world: World;
  downscale: Downscale;
  frame: string;
}): { answer: Answer; req: ClickRequest; shown: Size | undefined } {
  const truth: FrameGeometry = {
    image: o.image,
    css: { width: o.world.w, height: o.world.h },
    scroll: { x: o.world.sx, y: o.world.sy },
    devicePixelRatio: o.world.dpr,
  };
  const shown = shownSizeFor(o.downscale, o.image, CLIENT_LONG_EDGE, SHOWN_WIDTH);
  const answer = oracleAnswer(o.preset, o.box, truth, shown);
  const req: ClickRequest = { frame: o.frame, model: o.preset, model_output: answer.text };
  if (shown) req.shown_width = shown.width;
  return { answer, req, shown };
}

/** The size at which the client showed an image of `image` px in a downscale mode; undefined = as sent. */
export function shownSizeFor(
  mode: Downscale,
  image: Size,
  longEdge: number,
  shownWidth: number,
): Size | undefined {
  if (mode === 'none' || mode === 'full') return undefined;
  if (mode === 'shown-1000') {
    if (image.width === shownWidth) return undefined;
    return { width: shownWidth, height: Math.max(1, Math.round((image.height * shownWidth) / image.width)) };
  }
  const long = Math.max(image.width, image.height);
  if (long <= longEdge) return undefined;
  const s = longEdge / long;
  return {
    width: Math.max(1, Math.round(image.width * s)),
    height: Math.max(1, Math.round(image.height * s)),
  };
}
