import { comparable, type OcrWord, ocrEngine, readText } from '../../image/ocr.js';
import { pngRegion } from '../../image/pixel-diff.js';
import type { Attempt } from '../check/attempt.js';
import { missReport } from '../check/check.js';
import type { ClickReport } from '../check/verdicts.js';
import { fmtPoint } from '../check/verdicts.js';
import type { FrameRecord } from '../session/frames.js';
import { elementInImage, frameScale } from './pixel-band.js';
import { type PixelStage, textThen } from './pixels.js';

// expect.text on a point only pixels vouch for: what OCR reads under the point in the frame must say it, and
// where it does not, OCR of what the frame showed of the element says where that text was.

/** The text the agent said it means on a pixel target: expect.text, else expect.context (the row's text). */
export const pixelExpectText = (a: Attempt) => a.req.expect?.text ?? a.req.expect?.context;

/** At capture: does the band under the point read the expected text? If not, where in the frame it was. */
export async function missedInPixels(a: Attempt, s: PixelStage, want: string): Promise<ClickReport | null> {
  const engine = ocrEngine();
  if (!engine.ok) {
    // Not a doubtful point, an unread description: the pixels are still compared, and the verdict says so.
    s.check.ocr = `unavailable: ${engine.why}; expect "${want}" was not checked`;
    return null;
  }
  const read = await textThen(s);
  s.check.textThen = read;
  s.check.ocr = 'read';
  const needle = comparable(want);
  if (comparable(read).includes(needle)) return null;
  const frame = a.frame as FrameRecord & { image: string };
  const found = await locate(a, frame, needle);
  const said = `"${read}"`;
  if (!found) {
    return {
      ...a.report,
      verdict: 'MISSED_TARGET',
      message: `Not clicked: at capture the pixels under the point ${fmtPoint(a.resolved.point)} read ${said}, not "${want}", and OCR found "${want}" nowhere in what frame ${frame.id} showed of ${a.captured?.facts.tag.toLowerCase()}. Check the text, or scroll and take a new screenshot if the target is off-screen.`,
    };
  }
  return missReport(a, found, `read ${said} (OCR), not "${want}". OCR found "${want}": it`);
}

/** Where OCR reads the text in the frame's image of the element, CSS px of the viewport at capture (centre). */
async function locate(
  a: Attempt,
  frame: FrameRecord & { image: string },
  needle: string,
): Promise<{ x: number; y: number } | null> {
  const { k, origin } = frameScale(frame);
  const { x0, y0, x1, y1 } = elementInImage(a, frame);
  if (x1 <= x0 || y1 <= y0) return null;
  const png = Buffer.from(frame.image, 'base64');
  const region = await pngRegion(png, { x: x0, y: y0, width: x1 - x0, height: y1 - y0 });
  const { words } = await readText(region, { timeoutMs: 15_000 });
  const box = findWords(words, needle);
  if (!box) return null;
  return { x: (x0 + box.x + box.width / 2) / k + origin.x, y: (y0 + box.y + box.height / 2) / k + origin.y };
}

/** The box of the first run of words on one line whose text contains the needle (both as `comparable`). */
export function findWords(
  words: OcrWord[],
  wanted: string,
): { x: number; y: number; width: number; height: number } | null {
  const needle = comparable(wanted);
  for (let i = 0; i < words.length; i++) {
    let text = '';
    for (let j = i; j < words.length && words[j]?.line === words[i]?.line; j++) {
      text = comparable(`${text} ${words[j]?.text}`);
      if (text.includes(needle)) {
        const run = words.slice(i, j + 1).map((w) => w.box);
        const x = Math.min(...run.map((b) => b.x));
        const y = Math.min(...run.map((b) => b.y));
        const r = Math.max(...run.map((b) => b.x + b.width));
        const bottom = Math.max(...run.map((b) => b.y + b.height));
        return { x, y, width: r - x, height: bottom - y };
      }
      if (text.length > needle.length + 40) break;
    }
  }
  return null;
}
