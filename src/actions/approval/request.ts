import sharp from 'sharp';
import { type Hit, toHit } from '../../browser/identity/element-facts.js';
import { drawLabels } from '../../image/draw.js';
import type { Attempt } from '../check/attempt.js';
import { toImage } from '../check/target.js';
import type { Point } from '../check/verdicts.js';
import type { ControlFacts } from './rule.js';

/** What a person is asked to approve: the press as the frame showed it, never bare coordinates. */
export interface ApprovalRequest {
  /** "click", "double-click", "right-click". */
  action: string;
  /** The control and its record as the frame showed them (what the model saw), else as the page has them. */
  control: Hit;
  /** Why this press asks (rule.ts). */
  reason: string;
  frame: string | null;
  /** How old the frame was when the person was asked, ms. */
  frameAgeMs: number | null;
  point: Point | null;
  imagePoint: Point | null;
  /** The frame's image around the point, the point marked (PNG, base64); absent without a kept frame image. */
  crop?: {
    base64: string;
    width: number;
    height: number;
    /** Where in the frame's image the crop was cut, image px. */
    region: Region;
    /** The frame image's width, px: the same region of another image is scaled by it. */
    imageWidth: number;
  };
  /** `follow`: the record moved since the frame; where it is now (CSS px and px of an image like the frame's). */
  movedTo?: { css: Point; image: Point };
  /** One sentence for the person: `Click "Delete" in row "TCK-7741 Printer jams" (frame f3, 12 s old).` */
  sentence: string;
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Image px around the point the crop keeps on each side: a few rows above and below, and as wide as the
 * frame allows, since a row's name (its id, its title) often sits far from the button that acts on it.
 */
const CROP_HALF = { width: 1000, height: 180 };

export function controlFacts(a: Attempt): ControlFacts {
  const at = a.captured?.facts ?? a.seen ?? a.live;
  const hit = at ? toHit(at) : null;
  const live = a.live ?? a.seen;
  return {
    name: hit?.name ?? '',
    text: hit?.text ?? '',
    role: hit?.role ?? '',
    ...(at?.overlay?.label ? { overlay: at.overlay.label } : {}),
    ...(live?.submits ? { submits: live.submits } : {}),
  };
}

export async function approvalRequest(a: Attempt, reason: string): Promise<ApprovalRequest> {
  const at = a.captured?.facts ?? a.seen ?? a.live;
  const control: Hit = at ? toHit(at) : { tag: '', text: '', role: '', name: '', nodeId: 0 };
  const { report, frame } = a;
  const action = actionOf(a);
  const frameAgeMs = frame ? Date.now() - frame.capture.capturedAt : null;
  const crop =
    frame?.image && report.imagePoint ? await cropAround(frame.image, report.imagePoint) : undefined;
  const to = report.followed?.to;
  const movedTo = to && frame ? { css: to, image: toImage(frame, to) } : undefined;
  const moved = to
    ? ` It has moved since: the press goes to it at its new place (CSS x ${Math.round(to.x)}, y ${Math.round(to.y)}).`
    : '';
  return {
    action,
    control,
    reason,
    frame: report.frame,
    frameAgeMs,
    point: report.point,
    imagePoint: report.imagePoint,
    ...(crop ? { crop } : {}),
    ...(movedTo ? { movedTo } : {}),
    sentence: sentenceOf(action, control, at?.recordTag, report.frame, frameAgeMs) + moved,
  };
}

function actionOf(a: Attempt): string {
  const i = a.intent;
  // Drags are not put to a person; a 'drag' here is a model's left_mouse_down, the press of a click.
  if (i.kind === 'drag') return 'press';
  if (i.kind !== 'click') return i.kind;
  if (i.button === 'right') return 'right-click';
  return i.count === 2 ? 'double-click' : 'click';
}

function sentenceOf(
  action: string,
  c: Hit,
  recordTag: string | undefined,
  frame: string | null,
  ageMs: number | null,
): string {
  const what = c.name || c.text || c.tag;
  const kind =
    recordTag?.toLowerCase() === 'tr' ? 'row' : recordTag?.toLowerCase() === 'li' ? 'list item' : 'record';
  const record = c.context && c.context !== what ? ` in ${kind} "${c.context}"` : '';
  const seen = frame ? ` (frame ${frame}${ageMs !== null ? `, ${ageOf(ageMs)} old` : ''})` : '';
  return `${action[0]?.toUpperCase()}${action.slice(1)} "${what}"${c.overlay ? ` in ${c.overlay}` : ''}${record}${seen}.`;
}

/** 850 ms, 12 s, 4 min 5 s: how a person reads an age. */
export function ageOf(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
}

async function cropAround(imageB64: string, p: Point): Promise<ApprovalRequest['crop']> {
  const png = Buffer.from(imageB64, 'base64');
  const meta = await sharp(png).metadata();
  const W = meta.width ?? 0;
  const H = meta.height ?? 0;
  const left = clamp(Math.round(p.x - CROP_HALF.width), 0, Math.max(0, W - 2 * CROP_HALF.width));
  const top = clamp(Math.round(p.y - CROP_HALF.height), 0, Math.max(0, H - 2 * CROP_HALF.height));
  const region = {
    left,
    top,
    width: Math.min(2 * CROP_HALF.width, W - left),
    height: Math.min(2 * CROP_HALF.height, H - top),
  };
  const marked = await cutMarked(png, region, p);
  return {
    base64: marked.toString('base64'),
    width: region.width,
    height: region.height,
    region,
    imageWidth: W,
  };
}

/**
 * The crop's region of another image of the page (the page now, for the person to compare), the point
 * marked; scaled when that image is of another size than the frame's.
 */
export async function sameRegion(
  crop: NonNullable<ApprovalRequest['crop']>,
  point: Point,
  imageB64: string,
): Promise<Buffer> {
  const png = Buffer.from(imageB64, 'base64');
  const meta = await sharp(png).metadata();
  const W = meta.width ?? 0;
  const H = meta.height ?? 0;
  const k = crop.imageWidth ? W / crop.imageWidth : 1;
  // A followed record's new place may lie outside the frame's crop: the region is then centred on it.
  const c = crop.region;
  const inside =
    point.x >= c.left && point.x < c.left + c.width && point.y >= c.top && point.y < c.top + c.height;
  const r = inside
    ? c
    : { ...c, left: Math.max(0, point.x - c.width / 2), top: Math.max(0, point.y - c.height / 2) };
  const left = clamp(Math.round(r.left * k), 0, Math.max(0, W - 1));
  const top = clamp(Math.round(r.top * k), 0, Math.max(0, H - 1));
  const region = {
    left,
    top,
    width: Math.max(1, Math.min(Math.round(r.width * k), W - left)),
    height: Math.max(1, Math.min(Math.round(r.height * k), H - top)),
  };
  return cutMarked(png, region, { x: point.x * k, y: point.y * k });
}

async function cutMarked(png: Buffer, region: Region, p: Point): Promise<Buffer> {
  const cut = await sharp(png).extract(region).png().toBuffer();
  return drawLabels(cut, [
    {
      box: { x: p.x - region.left, y: p.y - region.top, width: 0, height: 0 },
      text: '',
      colour: '#e6194b',
      point: true,
    },
  ]);
}

const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);
