import { describeHit } from '../../browser/identity/element-facts.js';
import type { Box } from '../../image/draw.js';
import { comparable, ocrEngine, readText, readTexts, warmOcr } from '../../image/ocr.js';
import {
  channelsOf,
  diffGrey,
  fitGrey,
  type Grey,
  greyOf,
  greyPng,
  greyRegion,
  masked,
  tonesAlike,
} from '../../image/pixel-diff.js';
import type { Attempt } from '../check/attempt.js';
import { type ClickReport, fmt, fmtPoint } from '../check/verdicts.js';
import type { FrameRecord } from '../session/frames.js';
import { bandAround, bandCss, elementInImage, frameScale, pixelOnly } from './pixel-band.js';

// The pixel guard (for points the DOM cannot vouch for: a canvas, a video, an anonymous box). What the model
// saw around the point is cut from the frame's own image; right before dispatch the same band is captured
// again (a clipped capture, not a full screenshot) and compared: pixels first, then, where they changed, the
// text OCR reads in them; a band that moves by itself (a video) is judged by text that holds, else by its
// tones. The in-page guard cannot see inside pixels, so the window left open is the time from this re-read to
// the press, which the verdict states.

import type { PixelCheck, PixelStage } from './pixel-types.js';

export type { PixelCheck, PixelStage } from './pixel-types.js';

/**
 * The least change of one colour channel that counts in a record alike its siblings: chips of one
 * brightness differ by a few dozen levels per channel (#cfd3d7 and #a2eeef: 45, 27, 24).
 */
const COLOUR_STEP = 20;
/** Changed pixels (after filtering) below this count are noise. */
export const MIN_CHANGED = 6;
/** How long a changed band is watched for motion of its own: a few frames of a video. */
const MOTION_MS = 120;
/** Tones at least this alike: the same moving picture (a sweeping bar, a talking head), not another one. */
const TONES_ALIKE = 0.75;

/** Starts the pixel guard when the point's element carries no identity of its own and the frame kept its image. */
export async function pixelStage(a: Attempt): Promise<PixelStage | null> {
  const { frame, captured } = a;
  if (!frame || !captured || a.byMark) return null;
  const only = pixelOnly(captured.facts);
  const alike = only ? null : recordAlikeInDom(captured);
  const why = only ?? alike?.why;
  if (!why) return null;
  // What tells such a record apart may be drawn anywhere in it (a colour chip left of the button).
  if (alike) a.pixelArea = alike.area;
  if (!frame.image) {
    a.report.pixels = { why, band: { x: 0, y: 0, width: 0, height: 0 }, ocr: 'not needed' };
    return null;
  }
  // A changed band is read by OCR: its engine loads now, beside the rest of the check, not then.
  warmOcr();
  const png = Buffer.from(frame.image, 'base64');
  const { box: image, grey } = await bandAround(a, frame, png);
  const check: PixelCheck = { why, band: roundBox(bandCss(frame, image)), ocr: 'not needed' };
  a.report.pixels = check;
  const stage: PixelStage = { check, image, seenGrey: grey, seen: await greyPng(grey) };
  if (alike) stage.alike = { colours: await channelsOf(png, image), control: controlIn(a, image) };
  return stage;
}

/** The captured control's box in the band's own px: the part of a record the pointer's hover restyles. */
function controlIn(a: Attempt, band: Box): Box {
  const el = elementInImage({ ...a, pixelArea: undefined }, a.frame as FrameRecord);
  return { x: el.x0 - band.x, y: el.y0 - band.y, width: el.x1 - el.x0, height: el.y1 - el.y0 };
}

/**
 * A record alike its siblings in the DOM: its colours now against the frame's, outside the control the
 * pointer hovers (its hover style is the page's answer to trueclick). The DOM's text is the same in every
 * such record, so what OCR reads cannot vouch for it: any change refuses.
 */
async function compareAlike(a: Attempt, s: PixelStage, alike: NonNullable<PixelStage['alike']>) {
  const frame = a.frame as FrameRecord;
  const now = await channelsOf(await bandNow(a, s));
  let worst = { changedPixels: 0, changedShare: 0 };
  alike.colours.forEach((then, c) => {
    const fitted = fitGrey(now[c] as Grey, then.width, then.height);
    const d = diffGrey(then, masked(fitted, then, alike.control), COLOUR_STEP);
    if (d.changedPixels > worst.changedPixels) worst = d;
  });
  s.check.changedShare = Math.round(worst.changedShare * 10_000) / 10_000;
  if (worst.changedPixels < MIN_CHANGED) return null;
  const band = `the ${fmt(s.check.band.width)}×${fmt(s.check.band.height)} CSS px band of its ${a.captured?.facts.recordTag?.toLowerCase() ?? 'record'}`;
  return stale(
    a,
    `Not clicked: the point ${fmtPoint(a.resolved.point)} is on ${describeHit(a.report.hitAtCapture)} in ${s.check.why}; ${band} changed since frame ${frame.id} (${pct(worst.changedShare)} of its pixels, the control itself not counted): it shows another record now.`,
  );
}

/**
 * A record the DOM cannot tell from the records beside it (every part the same: rows told apart only by a
 * background image or a canvas): what the model saw there is pixels, so pixels decide.
 */
function recordAlikeInDom(c: NonNullable<Attempt['captured']>): { why: string; area: Box } | null {
  const distinct = c.doc.kit.distinctParts(c.index);
  if (!distinct || distinct.length === 0 || distinct.some(Boolean)) return null;
  const rec = c.doc.kit.record(c.index)?.node;
  const own = c.doc.boundsOf(c.index);
  const box = rec === undefined ? undefined : c.doc.boundsOf(rec);
  if (!own || !box) return null;
  // The snapshot's boxes are in the document's own px: the captured element's page bounds give the offset.
  const area = { ...box, x: box.x + c.bounds.x - own.x, y: box.y + c.bounds.y - own.y };
  const why = `a ${c.facts.recordTag?.toLowerCase() ?? 'record'} that nothing in the DOM tells from the ones beside it`;
  return { why, area };
}

const roundBox = (b: Box): Box => ({
  x: Math.round(b.x * 10) / 10,
  y: Math.round(b.y * 10) / 10,
  width: Math.round(b.width * 10) / 10,
  height: Math.round(b.height * 10) / 10,
});

/** The band's text in the frame, read once per attempt. */
export function textThen(s: PixelStage): Promise<string> {
  s.thenText ??= readText(s.seen).then((r) => r.text);
  return s.thenText;
}

/** The same band now, from a clipped capture at the frame's scale; the point may have followed a scroll. */
export function bandNow(a: Attempt, s: PixelStage, read?: { budgetMs: number }): Promise<Buffer> {
  return clipNow(a, s.image, read);
}

/**
 * A box of the frame's image (image px) as the page shows it now, captured at the frame's scale. With `read`,
 * a capture that may go unanswered (after a press) gives up after its budget without marking the page stuck.
 */
async function clipNow(a: Attempt, image: Box, read?: { budgetMs: number }): Promise<Buffer> {
  const frame = a.frame as FrameRecord;
  const { k } = frameScale(frame);
  const css = bandCss(frame, image);
  const shift = { x: a.vp.x - a.resolved.point.x, y: a.vp.y - a.resolved.point.y };
  const shot = await a.ctx.driver.send(
    'Page.captureScreenshot',
    {
      format: 'png',
      clip: {
        x: a.scrollNow.x + css.x + shift.x,
        y: a.scrollNow.y + css.y + shift.y,
        width: css.width,
        height: css.height,
        scale: k / frame.geometry.devicePixelRatio,
      },
      captureBeyondViewport: false,
    },
    read?.budgetMs,
    { mayGoUnanswered: read !== undefined },
  );
  return Buffer.from(shot.data, 'base64');
}

/** Now, before dispatch: do the pixels under the point still show what the model saw? */
export async function comparePixels(a: Attempt, s: PixelStage): Promise<ClickReport | null> {
  if (s.alike) return compareAlike(a, s, s.alike);
  const frame = a.frame as FrameRecord;
  // A capture shows the page as it was about when asked for, not when answered (~25 ms later): the motion
  // re-read is timed from the asking, so the two reads lie about MOTION_MS apart, not MOTION_MS and a capture.
  const nowAt = performance.now();
  const now = await bandNow(a, s);
  s.readAt = Date.now();
  const thenGrey = s.seenGrey;
  const nowGrey = fitGrey(await greyOf(now), thenGrey.width, thenGrey.height);
  s.before = nowGrey;
  const diff = diffGrey(thenGrey, nowGrey);
  const { check } = s;
  check.changedShare = Math.round(diff.changedShare * 10_000) / 10_000;
  if (diff.changedPixels < MIN_CHANGED) return columnVerdict(a, frame);
  const what = `the ${fmt(check.band.width)}×${fmt(check.band.height)} CSS px band under the point`;
  const where = `Not clicked: the point ${fmtPoint(a.resolved.point)} is on ${describeHit(a.report.hitAtCapture)}, a ${check.why} whose DOM says nothing of what it shows`;
  const engine = ocrEngine();
  if (!engine.ok) {
    check.ocr = `unavailable: ${engine.why}`;
    return stale(
      a,
      `${where}; ${what} changed since frame ${frame.id} (${pct(diff.changedShare)} of its pixels), and its text was not read (${engine.why}).`,
    );
  }
  // Whether the band moves by itself decides what its text and pixels can say: it is read again MOTION_MS
  // later, while OCR reads it then and now (the wait is idle time, the reads need the CPU).
  const [moving, [then = '', nowText = '']] = await Promise.all([
    motion(a, s, nowGrey, nowAt),
    readBand(s, [now]),
  ]);
  if (moving) check.moving = { share: moving.share, tonesAlike: moving.tonesAlike };
  const [t0, t1] = [then, nowText].map(comparable);
  check.textThen = then;
  check.textNow = nowText;
  check.ocr = t0 || t1 ? 'read' : 'no text';
  // The same words in changed pixels: a hover highlight or a redrawn badge, not another record.
  if (t0 && t0 === t1) return columnVerdict(a, frame);
  // Text that does not hold for MOTION_MS belongs to the moving picture (a video's frames read as letters).
  if (moving && (!t1 || t1 !== (await laterText(moving.later)))) {
    if (moving.tonesAlike >= TONES_ALIKE) return null;
    return stale(
      a,
      `${where}; ${what} ${movesBy(moving)} and its tones are only ${pct(moving.tonesAlike)} alike those in frame ${frame.id}: it shows another picture.`,
    );
  }
  if (!t0 && !t1)
    return stale(
      a,
      `${where}; ${what} changed since frame ${frame.id} (${pct(diff.changedShare)} of its pixels; OCR found no text in it).`,
    );
  return stale(
    a,
    `${where}; ${what} read "${then}" in frame ${frame.id}, now "${nowText}" (${pct(diff.changedShare)} of its pixels changed).`,
  );
}

/** Half the width (CSS px) of the column through the point that is compared too. */
const COLUMN_HALF = 6;

/**
 * The band across the point holds still (or reads the same words), but the column through it may not: a bar
 * chart re-sorted shows another bar at the point whose body fills the band as the first one did, and its
 * top, value and category lie above and below. A column that changes by itself (a clock drawn there, a
 * playing picture) is the page living: the band alone judges then.
 */
async function columnVerdict(a: Attempt, frame: FrameRecord): Promise<ClickReport | null> {
  if (!frame.image) return null;
  const { k, origin } = frameScale(frame);
  const el = elementInImage(a, frame);
  const px = (a.resolved.point.x - origin.x) * k;
  const x0 = Math.max(el.x0, Math.floor(px - COLUMN_HALF * k));
  const x1 = Math.min(el.x1, Math.ceil(px + COLUMN_HALF * k));
  if (x1 <= x0 || el.y1 <= el.y0) return null;
  const box = { x: x0, y: el.y0, width: x1 - x0, height: el.y1 - el.y0 };
  const then = await greyRegion(Buffer.from(frame.image, 'base64'), box);
  const look = async () => fitGrey(await greyOf(await clipNow(a, box)), then.width, then.height);
  const askedAt = performance.now();
  const now = await look();
  const diff = diffGrey(then, now);
  if (diff.changedPixels < MIN_CHANGED) return null;
  await new Promise((r) => setTimeout(r, Math.max(0, askedAt + MOTION_MS - performance.now())));
  if (diffGrey(now, await look()).changedPixels >= MIN_CHANGED) return null;
  const css = bandCss(frame, box);
  return stale(
    a,
    `Not clicked: the point ${fmtPoint(a.resolved.point)} is on ${describeHit(a.report.hitAtCapture)}, a ${a.report.pixels?.why ?? 'picture'} whose DOM says nothing of what it shows; the band across the point held, but the ${fmt(css.width)}×${fmt(css.height)} CSS px column through it changed since frame ${frame.id} (${pct(diff.changedShare)} of its pixels): what lies above and below the point (a bar's top, its value, its label) is another now.`,
  );
}

/** OCR of the band then (unless read already, for expect.text) and of the given images, in one request. */
async function readBand(s: PixelStage, images: Buffer[]): Promise<string[]> {
  if (!s.thenText) return (await readTexts([s.seen, ...images])).map((r) => r.text);
  const [then, rest] = await Promise.all([s.thenText, readTexts(images)]);
  return [then, ...rest.map((r) => r.text)];
}

/** The band's text MOTION_MS on, read only where it decides: text now that is not the frame's, in motion. */
async function laterText(later: Buffer): Promise<string> {
  return comparable((await readText(later)).text);
}

/**
 * Whether the band changes by itself: read again MOTION_MS after it was asked for at `nowAt`
 * (performance.now()). A playing video or an animation never matches its frame pixel for pixel, so its tones
 * against the frame's decide; null when it holds still.
 */
async function motion(
  a: Attempt,
  s: PixelStage,
  nowGrey: Grey,
  nowAt: number,
): Promise<(NonNullable<PixelCheck['moving']> & { later: Buffer }) | null> {
  await new Promise((r) => setTimeout(r, Math.max(0, nowAt + MOTION_MS - performance.now())));
  const later = await bandNow(a, s);
  s.readAt = Date.now();
  const laterGrey = fitGrey(await greyOf(later), nowGrey.width, nowGrey.height);
  const self = diffGrey(nowGrey, laterGrey);
  if (self.changedPixels < MIN_CHANGED) return null;
  return {
    share: Math.round(self.changedShare * 10_000) / 10_000,
    tonesAlike: tonesAlike(s.seenGrey, laterGrey),
    later,
  };
}

const movesBy = (m: NonNullable<PixelCheck['moving']>) =>
  `moves by itself (${pct(m.share)} of its pixels changed within ${MOTION_MS} ms)`;

export const pct = (share: number) => `${share < 0.001 && share > 0 ? '<0.1' : fmt(share * 100)}%`;

function stale(a: Attempt, sentence: string): ClickReport {
  return {
    ...a.report,
    verdict: 'STALE_TARGET',
    message: `${sentence} Take a new screenshot (browser_screenshot) and find the target again.`,
  };
}

/** Runs one pixel-guard step of an attempt, adding its time to the report's costMs. */
export async function pixelTimed<T>(a: Attempt, step: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await step();
  } finally {
    const c = a.report.pixels;
    if (c) c.costMs = Math.round(((c.costMs ?? 0) + performance.now() - t0) * 10) / 10;
  }
}

/** Marks the start of dispatch: the window between the pixel re-read and the press, measured. */
export function pixelWindow(a: Attempt): void {
  const s = a.pixelStage;
  if (s?.readAt !== undefined) s.check.windowMs = Date.now() - s.readAt;
}

/** What the verdict adds for a pixel target that was acted on. */
export function pixelSentence(c: PixelCheck): string {
  const gap = c.windowMs !== undefined ? `${c.windowMs} ms` : 'a few ms';
  const band = `${fmt(c.band.width)}×${fmt(c.band.height)} CSS px band`;
  if (c.moving)
    return ` The point is on a ${c.why} whose ${band} under it ${movesBy(c.moving)}: trueclick compared its tones with the frame's (${pct(c.moving.tonesAlike)} alike) ${gap} before the press. Tones tell another picture apart, not another record drawn alike, and no guard sees inside pixels.`;
  const seen =
    c.ocr === 'read'
      ? `its pixels changed (${pct(c.changedShare ?? 0)}) but read the same text ("${c.textNow}")`
      : 'unchanged';
  const unread = c.ocr.startsWith('unavailable: ') ? ` Text was not read: ${c.ocr.slice(13)}.` : '';
  return ` The point is on a ${c.why}: trueclick compared the ${band} under it with the frame (${seen}) ${gap} before the press; no guard sees inside pixels, so a change within those ${gap} would go unseen.${unread}`;
}
