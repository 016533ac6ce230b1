import { errorResult, NO_CLICK, ResponseBuilder } from '../response.js';
import { targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';
import { toClickRequest } from './click.js';

export const pointTool = defineTool({
  name: 'browser_point',
  title: 'Resolve a point without clicking',
  description:
    'Same input as browser_click, clicks nothing: says which CSS point the target resolves to, which element is there now and which was there in the frame. Use it to check a reading before acting.',
  inputSchema: targetShape,
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handle(session, args) {
    try {
      const r = await session.point(toClickRequest(args));
      const structured = {
        point: r.dispatched ?? r.point,
        imagePoint: r.imagePoint,
        frame: r.frame,
        hitNow: r.hitNow,
        hitAtCapture: r.hitAtCapture,
        ...(r.expected ? { expected: r.expected } : {}),
        check: r.verdict,
        ...(r.verdict !== 'OK' ? { checkMessage: r.message } : {}),
        ...(r.expectedAt ? { expectedAt: r.expectedAt } : {}),
        ...(r.scrollSinceFrame ? { scrollSinceFrame: r.scrollSinceFrame } : {}),
      };
      const text =
        r.verdict === 'OK'
          ? r.message
          : `${r.message.replace(/^Not clicked: /, 'A click here would be refused: ')}`;
      return new ResponseBuilder().line(text).structuredContent(structured).build();
    } catch (err) {
      return errorResult(err, { ...NO_CLICK, frame: args.frame ?? null });
    }
  },
});
