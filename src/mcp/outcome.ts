import { z } from 'zod';
import { ERROR_VERDICTS, type Verdict } from '../actions/check/verdicts.js';

// The parts of structuredContent every tool shares, as zod schemas: each tool's outputSchema is these plus
// its own fields, so tools/list publishes the contract and the SDK client checks every answer against it.

/** Verdicts of an action on a point that refused it: nothing was sent. */
const REFUSALS = [
  'STALE_TARGET',
  'COVERED',
  'MISSED_TARGET',
  'FRAME_MISMATCH',
  'DISABLED',
  'DECLINED',
] as const;
/** Verdicts of an action that was sent: it reached another element, or where it landed is not confirmed. */
const AFTER_SENDING = ['LANDED_ELSEWHERE', 'UNVERIFIED'] as const;

/** Every verdict of an action on a point (verdicts.ts `Verdict`). */
export const ACTION_VERDICTS = ['OK', ...REFUSALS, ...AFTER_SENDING] as const;
// Compiles only while the lists above hold every Verdict: a new one cannot be left out of the schema.
type Unlisted = Exclude<Verdict, (typeof ACTION_VERDICTS)[number]>;
const everyVerdictListed: [Unlisted] extends [never] ? true : never = true;
void everyVerdictListed;

/** The verdicts as the `verdict` description lists them, from the lists above so that none is left out. */
const VERDICTS_TOLD = `OK; a refusal of an action on a point, nothing sent (${REFUSALS.join(', ')}); an outcome after it was sent (${AFTER_SENDING.join(', ')}); or an error kind, nothing done (${Object.values(ERROR_VERDICTS).join(', ')})`;

const rect = z
  .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() })
  .describe('CSS px of the page viewport: left, top, width, height.');

export const cssPoint = z.object({ x: z.number(), y: z.number() }).describe('CSS px of the page viewport.');
export const imagePoint = z.object({ x: z.number(), y: z.number() }).describe('Pixels of the frame’s image.');

export const hitSchema = z
  .looseObject({
    tag: z.string(),
    text: z.string(),
    role: z.string(),
    name: z.string(),
    nodeId: z.number().describe('CDP backend node id.'),
    id: z.string().optional(),
    href: z.string().optional(),
    context: z.string().optional().describe('Text of its record: the row, card or list item around it.'),
    overlay: z.string().optional(),
    frame: z.string().optional().describe('CDP frame id when the element is inside an iframe.'),
    checked: z.boolean().optional(),
    rect: rect.optional(),
  })
  .describe('An element as trueclick saw it.');

export const dialogSchema = z
  .object({
    type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
    message: z.string(),
    defaultValue: z.string().optional().describe('The prompt’s default answer.'),
    url: z.string().optional().describe('The page that opened it.'),
  })
  .describe(
    'A JavaScript dialog open on the page (this call’s, or one still waiting); answer it with browser_handle_dialog.',
  );

export const newTabSchema = z
  .object({
    index: z.number().int().describe('Its index in browser_tabs.'),
    url: z.string(),
    followed: z.boolean().describe('trueclick now acts on this tab.'),
  })
  .describe('A tab or popup this call opened.');

export const fileChooserSchema = z
  .object({
    multiple: z.boolean().describe('Whether it takes several files.'),
    accept: z.string().optional(),
  })
  .describe('A file chooser this call opened; it waits for browser_file_upload {paths}.');

/** Fields of every tool's structuredContent. */
export const outcomeShape = {
  verdict: z
    .enum([...ACTION_VERDICTS, ...Object.values(ERROR_VERDICTS)])
    .describe(`${VERDICTS_TOLD}. A tool that acts on no point answers OK or an error kind.`),
  message: z.string().describe('One sentence for the agent: what happened and what to do next.'),
  error: z
    .object({
      code: z.string(),
      kind: z.enum(['bad_input', 'blocked', 'browser_gone', 'session_gone', 'timeout', 'internal']),
      message: z.string(),
      hint: z.string(),
      field: z.string().optional().describe('The argument the problem is in.'),
    })
    .optional()
    .describe('Why nothing was done, when the call failed.'),
  notice: z.string().optional().describe('Something that happened apart from this call, said once.'),
  blocked: z
    .object({ url: z.string(), reason: z.string() })
    .optional()
    .describe('A page the action led to that the URL policy refused (a link, a redirect): not loaded.'),
  dialog: dialogSchema.optional(),
  newTab: newTabSchema.optional(),
  fileChooser: fileChooserSchema.optional(),
};

/** The fields of a checked action's report (ClickReport): click, point, hover, drag, type, select, upload. */
export const reportShape = {
  dispatched: cssPoint
    .nullable()
    .optional()
    .describe('Where the trusted input was sent, CSS px of the viewport; null = nothing was sent.'),
  frame: z.string().nullable().optional().describe('The frame the point was read from.'),
  point: cssPoint.nullable().optional().describe('The resolved point, CSS px of the viewport at capture.'),
  imagePoint: imagePoint
    .nullable()
    .optional()
    .describe('The same point in px of the frame’s image as sent; null without a frame.'),
  hitNow: hitSchema.nullable().optional().describe('What the point holds now.'),
  hitAtCapture: hitSchema.nullable().optional().describe('What the point held in the frame.'),
  expected: z.looseObject({}).optional().describe('The `expect` given, as it was checked.'),
  landed: hitSchema.nullable().optional().describe('The element that received the trusted input.'),
  mutationsSinceFrame: z
    .number()
    .nullable()
    .optional()
    .describe(
      'DOM mutation records in the page’s own document from the frame’s capture to the check; null without a frame, for an element inside an iframe (its document is counted apart), or when the point was not looked at.',
    ),
  frameAgeMs: z
    .number()
    .nullable()
    .optional()
    .describe('ms from the frame’s capture to the start of this check; null without a frame.'),
  diagnosis: z.looseObject({}).optional().describe('FRAME_MISMATCH: the fitted scale, offset and causes.'),
  expectedAt: z
    .looseObject({ css: cssPoint, image: imagePoint, offsetCss: cssPoint })
    .optional()
    .describe(
      'MISSED_TARGET: where the described element was in the frame: {css (its centre, CSS px of the viewport at capture), image (px of the frame’s image), offsetCss (your point minus that centre, CSS px)}.',
    ),
  exposureMs: z
    .number()
    .optional()
    .describe(
      'ms, by the page’s clock, from the guard being armed on the checked element to the first input event it judged: how long the check → press window stayed open.',
    ),
  watchedMs: z.number().optional().describe('ms spent watching a text that may tick before judging.'),
  guard: z
    .looseObject({})
    .optional()
    .describe(
      'What the in-page guard saw of the input sent: {delivered (input events let through to the checked element), blocked (events stopped before the page’s handlers saw them: another element was under the point, or the checked one changed), firstInLine (its listeners ran before the page’s own; false when the document loaded before trueclick attached)}.',
    ),
  scrollSinceFrame: cssPoint
    .optional()
    .describe(
      'How far the page scrolled since the frame, CSS px {x, y} (> 0: right, down); the point followed the document by it.',
    ),
  routingOffset: cssPoint
    .optional()
    .describe(
      'Inside a cross-site iframe: how far from the checked point (CSS px {x, y}) Chromium delivered the pointer; the press was sent moved by it, and the guard confirmed where it arrived.',
    ),
  disabled: z
    .object({
      reason: z.string(),
      by: z.object({ tag: z.string(), text: z.string() }),
      inFrame: z.boolean(),
    })
    .optional()
    .describe(
      'DISABLED: why the element cannot act {reason (disabled, fieldset, aria-disabled, inert, readonly), by {tag, text} (the element that makes it so), inFrame (the frame already showed it so)}.',
    ),
  changes: z.array(z.looseObject({})).optional().describe('STALE_TARGET: what differs since the frame.'),
  followed: z
    .object({ from: cssPoint, to: cssPoint, record: z.string(), why: z.string() })
    .optional()
    .describe(
      '`follow`: the record moved; {from, to (CSS px of the viewport now), record (the text that named it), why}.',
    ),
  notFollowed: z
    .object({ record: z.string().nullable(), why: z.string() })
    .optional()
    .describe('`follow` was asked and the record was not followed: {record, why}.'),
  setAside: z
    .array(z.looseObject({}))
    .optional()
    .describe('OK: what changed but is not part of the record (live text, the answer to the hover).'),
  pixels: z
    .looseObject({})
    .optional()
    .describe(
      'A point only pixels vouch for (canvas, video, anonymous box): {why, band (CSS px of the viewport at capture), changedShare (0–1), textThen, textNow, ocr, moving {share, tonesAlike} when it moves by itself (a playing video), windowMs (re-read → press, ms)}.',
    ),
  effect: z
    .looseObject({ kind: z.enum(['navigated', 'opened', 'changed', 'none']) })
    .optional()
    .describe(
      'What the press did: navigated {url}, opened {what, name}, changed {what[]}, or none {withinMs; on a canvas pixels: same|unread, unread: why}.',
    ),
  navigation: z
    .looseObject({})
    .optional()
    .describe('The action navigated: {url, kind, committed, reason, frame}.'),
};
