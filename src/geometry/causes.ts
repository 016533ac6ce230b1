// Named explanations for a fitted scale or offset. A scale of 1.225 means nothing to an agent; "1568/1280: a
// 1568-px-wide image read as CSS px of a 1280-px viewport" tells it which convention field to fix.

/** Common devicePixelRatios (device px per CSS px), tried when naming the cause of a fitted scale. */
export const COMMON_DPRS = [1.25, 1.5, 1.65, 1.75, 2, 2.5, 3] as const;
/** Widths of images models are shown: client/provider downscales, Claude's resize of common screens, XGA.. */
const IMAGE_WIDTHS = [
  768, 1024, 1092, 1280, 1330, 1356, 1366, 1429, 1440, 1568, 1600, 1920, 1932, 2560, 2880, 3840,
];
const VIEWPORT_WIDTHS = [800, 1024, 1280, 1366, 1440, 1536, 1600, 1920, 2560];
/** Relative distance within which a fitted scale is said to match a named ratio (0.5 %). */
export const SCALE_MATCH_TOLERANCE = 0.005;

interface Explanation {
  value: number;
  text: string;
  /** 1 for a single cause, 2 for a product of two (offered only when no single cause fits). */
  complexity: number;
}

function fmt(v: number): string {
  return Number(v.toFixed(4)).toString();
}

function candidates(): Explanation[] {
  const out: Explanation[] = [];
  for (const d of COMMON_DPRS) {
    out.push({
      value: d,
      text: `devicePixelRatio ${d}: device pixels of the screenshot read as CSS px`,
      complexity: 1,
    });
    out.push({
      value: 1 / d,
      text: `1/${d} = ${fmt(1 / d)}: CSS px divided by devicePixelRatio ${d} although they already were CSS px`,
      complexity: 1,
    });
  }
  for (const a of IMAGE_WIDTHS) {
    for (const b of VIEWPORT_WIDTHS) {
      if (a === b || a / b < 0.3 || a / b > 3.5) continue;
      out.push({
        value: a / b,
        text: `${a}/${b} = ${fmt(a / b)}: a ${a}-px-wide image read as CSS px of a ${b}-px viewport`,
        complexity: 1,
      });
      for (const d of COMMON_DPRS) {
        out.push({
          value: a / b / d,
          text: `${a}/${b} / ${d} = ${fmt(a / b / d)}: pixels of a ${a}-px-wide image of a ${b}-px viewport taken for the full device-pixel capture and divided by devicePixelRatio ${d}`,
          complexity: 2,
        });
        out.push({
          value: d * (a / b),
          text: `${d} x ${a}/${b} = ${fmt(d * (a / b))}: pixels of a ${a}-px-wide image of a ${b}-px viewport read as CSS px and multiplied by devicePixelRatio ${d}`,
          complexity: 2,
        });
      }
    }
  }
  return out;
}

const CANDIDATES = candidates();

/**
 * Named causes for a scale actual/intended, closest first. Products of a devicePixelRatio and a downscale are
 * offered only when no single cause fits: they match almost any number, so they would bury the simple story.
 */
export function explainScale(scale: number, limit = 4): string[] {
  if (!Number.isFinite(scale) || scale <= 0) return [];
  const matches = CANDIDATES.map((c) => ({ ...c, error: Math.abs(c.value - scale) / scale }))
    .filter((c) => c.error <= SCALE_MATCH_TOLERANCE)
    .sort((p, q) => p.complexity - q.complexity || p.error - q.error);
  const simplest = matches[0]?.complexity;
  return matches
    .filter((c) => c.complexity === simplest)
    .slice(0, limit)
    .map((c) => c.text);
}

/** Causes of a constant shift (actual - intended), in CSS px. */
export function explainOffset(dx: number, dy: number, tolerance: number): string[] {
  const out: string[] = [];
  if (dy > tolerance) {
    out.push(
      `y +${fmt(dy)} px: page coordinates used as viewport coordinates while the page was scrolled ${fmt(dy)} px (pass space 'page')`,
      `y +${fmt(dy)} px: screen or window coordinates used as viewport coordinates, ${fmt(dy)} px of browser chrome above the page, e.g. an 85 px toolbar (pass space 'screen')`,
    );
  } else if (dy < -tolerance) {
    out.push(
      `y ${fmt(dy)} px: the page scrolled ${fmt(-dy)} px between the screenshot and the click, or the scroll offset was subtracted twice`,
    );
  }
  if (dx > tolerance) {
    out.push(
      `x +${fmt(dx)} px: window or screen coordinates used as viewport ones (a ${fmt(dx)} px window edge or side panel), or a horizontal scroll of ${fmt(dx)} px`,
    );
  } else if (dx < -tolerance) {
    out.push(`x ${fmt(dx)} px: a horizontal scroll or side panel of ${fmt(-dx)} px counted the wrong way`);
  }
  return out;
}
