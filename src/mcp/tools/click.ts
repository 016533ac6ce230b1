import { z } from 'zod';
import type { ClickRequest } from '../../actions/click.js';
import type { ClickReport } from '../../actions/verdicts.js';
import { errorResult, NO_CLICK, ResponseBuilder } from '../response.js';
import { targetShape } from '../target-schema.js';
import { defineTool } from '../tool.js';

/** zod gives `undefined` for absent optionals; the geometry layer treats present-but-undefined as absent too. */
export function toClickRequest(args: Record<string, unknown>): ClickRequest {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined) out[k] = v;
  return out as ClickRequest;
}

export function reportResult(report: ClickReport, refusedIsError: boolean) {
  const b = new ResponseBuilder().line(`${report.verdict}: ${report.message}`).structuredContent(report);
  if (refusedIsError && report.verdict !== 'OK') b.isError();
  return b;
}

export const clickTool = defineTool({
  name: 'browser_click',
  title: 'Click, checked against the screenshot',
  description:
    'Click one target: {frame, x, y} in pixels of that screenshot, or {frame, box}, or {frame, mark}, or {frame, model, model_output}. Before the click trueclick checks that the element under the point is the one that was there in the frame (and fits `expect`); if the page changed it does not click and says why (STALE_TARGET, COVERED, MISSED_TARGET, FRAME_MISMATCH), with `changes` naming what differs. Verdict OK names the element that received the trusted click (inside iframes and web components too); a click that navigates is OK and `navigation` says where the page went.',
  inputSchema: {
    ...targetShape,
    button: z.enum(['left', 'right', 'middle']).optional().describe('Mouse button (default left).'),
    click_count: z.number().int().min(1).max(3).optional().describe('2 for a double click.'),
  },
  annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
  async handle(session, args) {
    try {
      const report = await session.click(toClickRequest(args));
      const b = reportResult(report, true);
      const notice = session.takeNotice();
      if (notice) b.line(notice);
      return b.build();
    } catch (err) {
      return errorResult(err, { ...NO_CLICK, frame: args.frame ?? null });
    }
  },
});
