import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Screenshot } from '../actions/session/session.js';
import { markLine } from '../actions/verbs/marks.js';
import { roundBox } from '../browser/identity/element-facts.js';
import { ResponseBuilder } from './response.js';

const r4 = (n: number) => Math.round(n * 10_000) / 10_000;
const size = z.object({ width: z.number(), height: z.number() });

/** structuredContent of a screenshot or a zoom: the frame (SPEC S4) and its marks. */
export const frameOutput = {
  frame: z
    .object({
      id: z.string(),
      image: size.describe('The image as sent, px.'),
      css: size.describe('CSS px of the viewport area the image shows.'),
      origin: z
        .object({ x: z.number(), y: z.number() })
        .optional()
        .describe('A zoom frame: the CSS viewport point at the image’s top-left.'),
      scroll: z.object({ x: z.number(), y: z.number() }).describe('CSS scroll offset at capture.'),
      devicePixelRatio: z.number(),
      cssPerImagePx: z.object({ x: z.number(), y: z.number() }).describe('CSS px per image px, per axis.'),
      capturedAt: z.string(),
      url: z.string(),
      zoomOf: z.string().optional().describe('A zoom frame: the frame it enlarges.'),
    })
    .optional(),
  marks: z
    .array(
      z.looseObject({
        id: z.number(),
        role: z.string(),
        name: z.string(),
        text: z.string(),
        image: z.looseObject({}).describe('Box in image px.'),
        css: z.looseObject({}).describe('Box in CSS viewport px.'),
      }),
    )
    .optional(),
};

/** A frame's facts as structuredContent gives them (SPEC S4), every number named by its unit above. */
export function frameFacts(frame: Screenshot['frame']) {
  const g = frame.geometry;
  return {
    id: frame.id,
    image: g.image,
    css: { width: r4(g.css.width), height: r4(g.css.height) },
    ...(g.origin ? { origin: { x: r4(g.origin.x), y: r4(g.origin.y) } } : {}),
    scroll: g.scroll,
    devicePixelRatio: g.devicePixelRatio,
    cssPerImagePx: { x: r4(g.css.width / g.image.width), y: r4(g.css.height / g.image.height) },
    capturedAt: new Date(frame.capture.capturedAt).toISOString(),
    url: frame.capture.url,
    ...(frame.zoomOf ? { zoomOf: frame.zoomOf } : {}),
  };
}

/** The answer of browser_screenshot and browser_zoom: the image, how to click by it, the frame's facts. */
export function frameResult(shot: Screenshot): CallToolResult {
  const { frame } = shot;
  const g = frame.geometry;
  const { cssPerImagePx } = frameFacts(frame);
  const b = new ResponseBuilder();
  const shows = g.origin
    ? `the ${r4(g.css.width)}×${r4(g.css.height)} CSS px region at (${r4(g.origin.x)}, ${r4(g.origin.y)}) of the viewport of ${frame.capture.url}, enlarged from frame ${frame.zoomOf ?? 'the page'}`
    : `the ${r4(g.css.width)}×${r4(g.css.height)} CSS px viewport of ${frame.capture.url}`;
  b.line(
    `Frame ${frame.id}: image ${g.image.width}×${g.image.height} px showing ${shows} (devicePixelRatio ${g.devicePixelRatio}, scroll ${g.scroll.x},${g.scroll.y} CSS px; 1 image px = ${cssPerImagePx.x} CSS px).`,
  );
  b.line(
    `To click: browser_click {frame: "${frame.id}", x, y} with x, y in pixels of this image (add shown_width if your client showed it at another width), or a box, or your raw model_output with model.`,
  );
  if (shot.marks) {
    b.line(`Marks (click with {frame: "${frame.id}", mark: N}):`);
    for (const m of shot.marks) b.line(markLine(m));
  }
  b.image(shot.base64, shot.mimeType);
  const message = `Frame ${frame.id} of ${frame.capture.url}.`;
  b.structuredContent({
    verdict: 'OK',
    message,
    frame: frameFacts(frame),
    ...(shot.marks
      ? {
          marks: shot.marks.map((m) => ({
            id: m.id,
            role: m.hit.role,
            name: m.hit.name,
            text: m.hit.text,
            context: m.hit.context,
            image: roundBox(m.image),
            css: roundBox(m.css),
          })),
        }
      : {}),
  });
  return b.build();
}
