// The grounding matrix's dimensions (SPEC S5, S7) and the cells they span. A browser is one
// (devicePixelRatio, scale source, scrollbar) config; inside it, each scroll state is one page load with one
// frame per server image size, and every (client downscale, preset, target) cell is a click on that frame.

import { isPresetName, PRESET_NAMES, type PresetName } from '../../geometry/index.js';
import { DOWNSCALES, type Downscale } from '../../grounding/oracle.js';

export {
  CLIENT_LONG_EDGE,
  DOWNSCALES,
  type Downscale,
  fromFullResolution,
  SHOWN_WIDTH,
} from '../../grounding/oracle.js';

export const DPRS = [1, 1.25, 1.5, 1.65, 2, 3] as const;
export const SCALE_SOURCES = ['emulated', 'real'] as const;
/** hidden: Chromium's --hide-scrollbars (no scrollbar takes layout width); classic: a 16 px ::-webkit-scrollbar. */
export const SCROLLBARS = ['hidden', 'classic'] as const;
/** top: scroll 0; scrolled: window.scrollTo(0, SCROLL_BY), the #scrolled-* targets in view. */
export const SCROLLS = ['top', 'scrolled'] as const;
/** near: by the origin; far: the bottom-right corner; edge: the right edge, beside the scrollbar. */
export const TARGETS = ['near', 'far', 'edge'] as const;

export type ScaleSource = (typeof SCALE_SOURCES)[number];
export type Scrollbar = (typeof SCROLLBARS)[number];
export type Scroll = (typeof SCROLLS)[number];
export type TargetKind = (typeof TARGETS)[number];

export const VIEWPORT = { width: 1280, height: 800 } as const;
/** CSS px the page scrolls by in the `scrolled` state (the fixture's `at`). */
export const SCROLL_BY = 1000;
/** Width of the classic scrollbar the /targets page styles (?scrollbar=16). */
export const SCROLLBAR_PX = 16;

export interface MatrixSpec {
  dprs: number[];
  sources: ScaleSource[];
  scrollbars: Scrollbar[];
  scrolls: Scroll[];
  downscales: Downscale[];
  presets: PresetName[];
  targets: TargetKind[];
  /** Also run the naive pipeline (the model's numbers used as CSS px). */
  naive: boolean;
}

export interface BrowserConfig {
  dpr: number;
  source: ScaleSource;
  scrollbar: Scrollbar;
}

export interface Cell extends BrowserConfig {
  scroll: Scroll;
  downscale: Downscale;
  preset: PresetName;
  target: TargetKind;
}

export const FULL_SPEC: MatrixSpec = {
  dprs: [...DPRS],
  sources: [...SCALE_SOURCES],
  scrollbars: [...SCROLLBARS],
  scrolls: [...SCROLLS],
  downscales: [...DOWNSCALES],
  presets: [...PRESET_NAMES],
  targets: [...TARGETS],
  naive: true,
};

/**
 * One preset per kind of reading: px with each provider resize rule (claude, anthropic-quickstart, qwen2.5-vl
 * smart_resize, ui-tars-1.5 smart_resize with its own minimum, none: openai-cua), per-mille y-first boxes
 * (gemini), per-mille tokens (qwen2-vl), percent (molmo), bins (florence-2), 0..1 (showui).
 */
export const REDUCED_PRESETS: PresetName[] = [
  'claude',
  'anthropic-quickstart',
  'openai-cua',
  'gemini',
  'qwen2-vl',
  'qwen2.5-vl',
  'ui-tars-1.5',
  'molmo',
  'florence-2',
  'showui',
].filter(isPresetName);

/**
 * The reduced matrix of `npm test` and `--quick`: enough to catch a scale, scrollbar, scroll, resize or axis
 * bug (a fractional and an integer DPR beside 1, both worlds, both scrollbars, both scrolls, every client
 * downscale, near-origin and far-corner targets).
 */
export const REDUCED_SPEC: MatrixSpec = {
  ...FULL_SPEC,
  dprs: [1, 1.65, 2],
  presets: REDUCED_PRESETS,
  targets: ['near', 'far'],
};

export function configsOf(spec: MatrixSpec): BrowserConfig[] {
  const out: BrowserConfig[] = [];
  for (const source of spec.sources)
    for (const dpr of spec.dprs)
      for (const scrollbar of spec.scrollbars) out.push({ dpr, source, scrollbar });
  return out;
}

/** Clicks per scroll state of one browser config. */
export function clicksPerScroll(spec: MatrixSpec): number {
  return spec.downscales.length * spec.presets.length * spec.targets.length;
}

export function cellCount(spec: MatrixSpec): number {
  return configsOf(spec).length * spec.scrolls.length * clicksPerScroll(spec);
}

export function configLabel(c: BrowserConfig): string {
  return `${c.source} DPR ${c.dpr} ${c.scrollbar} scrollbar`;
}

export function cellLabel(c: Cell): string {
  return `${c.source} DPR ${c.dpr}, ${c.scrollbar} scrollbar, ${c.scroll}, downscale ${c.downscale}, ${c.preset}, ${c.target}`;
}

/** The fixture element a target kind names in a scroll state. */
export function targetId(target: TargetKind, scroll: Scroll): string {
  return scroll === 'scrolled' ? `scrolled-${target}` : target;
}

// Option parsing for the CLI: comma lists checked against the known values.

function list(v: string): string[] {
  return v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export class SpecError extends Error {}

function pickAll<T extends string>(what: string, v: string, allowed: readonly T[]): T[] {
  const out: T[] = [];
  for (const s of list(v)) {
    if (!(allowed as readonly string[]).includes(s)) {
      throw new SpecError(`unknown ${what} "${s}"; expected some of ${allowed.join(', ')}`);
    }
    out.push(s as T);
  }
  if (out.length === 0) throw new SpecError(`--${what} needs at least one value`);
  return out;
}

export interface SpecFlags {
  quick?: boolean;
  dpr?: string;
  sources?: string;
  scrollbars?: string;
  scrolls?: string;
  downscales?: string;
  presets?: string;
  targets?: string;
  naive?: boolean;
}

/** The spec the flags ask for: `--quick` starts from the reduced matrix, the other flags narrow either. */
export function specFromFlags(f: SpecFlags): MatrixSpec {
  const spec: MatrixSpec = { ...(f.quick ? REDUCED_SPEC : FULL_SPEC) };
  if (f.dpr !== undefined) {
    spec.dprs = list(f.dpr).map((s) => {
      const n = Number(s);
      if (!Number.isFinite(n) || n <= 0 || n > 5)
        throw new SpecError(`--dpr "${s}" is not a devicePixelRatio in (0, 5]`);
      return n;
    });
    if (spec.dprs.length === 0) throw new SpecError('--dpr needs at least one value');
  }
  if (f.sources !== undefined) spec.sources = pickAll('sources', f.sources, SCALE_SOURCES);
  if (f.scrollbars !== undefined) spec.scrollbars = pickAll('scrollbars', f.scrollbars, SCROLLBARS);
  if (f.scrolls !== undefined) spec.scrolls = pickAll('scrolls', f.scrolls, SCROLLS);
  if (f.downscales !== undefined) spec.downscales = pickAll('downscales', f.downscales, DOWNSCALES);
  if (f.presets !== undefined) spec.presets = pickAll('presets', f.presets, PRESET_NAMES);
  if (f.targets !== undefined) spec.targets = pickAll('targets', f.targets, TARGETS);
  if (f.naive === false) spec.naive = false;
  return spec;
}
