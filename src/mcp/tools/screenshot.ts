import { z } from 'zod';
import { markLine } from '../../actions/marks.js';
import { roundBox } from '../../browser/element-facts.js';
import { errorResult, ResponseBuilder } from '../response.js';
import { defineTool } from '../tool.js';

const r4 = (n: number) => Math.round(n * 10_000) / 10_000;

export const screenshotTool = defineTool({
  name: 'browser_screenshot',
  title: 'Screenshot (a frame you can click by)',
  description:
    'Screenshot of the viewport. Each screenshot is a frame (f1, f2, …): to click something you see, pass `frame` and the pixel coordinates of this image to browser_click; trueclick converts them to CSS px and checks the element is still there.',
  inputSchema: {
    marks: z
      .boolean()
      .optional()
      .describe('Draw numbered labels on interactive elements and list them; click one with {frame, mark}.'),
    max_width: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Largest image width to send, in image px (default fits 1568 px long edge and 1.15 MP).'),
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handle(session, { marks, max_width }) {
    try {
      const opts: { marks?: boolean; maxWidth?: number } = {};
      if (marks !== undefined) opts.marks = marks;
      if (max_width !== undefined) opts.maxWidth = max_width;
      const shot = await session.screenshot(opts);
      const { frame } = shot;
      const g = frame.geometry;
      const cssPerImagePx = { x: r4(g.css.width / g.image.width), y: r4(g.css.height / g.image.height) };
      const b = new ResponseBuilder();
      const notice = session.takeNotice();
      if (notice) b.line(notice);
      b.line(
        `Frame ${frame.id}: image ${g.image.width}×${g.image.height} px showing the ${r4(g.css.width)}×${r4(g.css.height)} CSS px viewport of ${frame.capture.url} (devicePixelRatio ${g.devicePixelRatio}, scroll ${g.scroll.x},${g.scroll.y} CSS px; 1 image px = ${cssPerImagePx.x} CSS px).`,
      );
      b.line(
        `To click: browser_click {frame: "${frame.id}", x, y} with x, y in pixels of this image (add shown_width if your client showed it at another width), or a box, or your raw model_output with model.`,
      );
      if (shot.marks) {
        b.line(`Marks (click with {frame: "${frame.id}", mark: N}):`);
        for (const m of shot.marks) b.line(markLine(m));
      }
      b.image(shot.base64, shot.mimeType);
      b.structuredContent({
        frame: {
          id: frame.id,
          image: g.image,
          css: { width: r4(g.css.width), height: r4(g.css.height) },
          scroll: g.scroll,
          devicePixelRatio: g.devicePixelRatio,
          cssPerImagePx,
          capturedAt: new Date(frame.capture.capturedAt).toISOString(),
          url: frame.capture.url,
        },
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
    } catch (err) {
      return errorResult(err);
    }
  },
});
