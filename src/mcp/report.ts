import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ClickReport } from '../actions/check/verdicts.js';
import { ResponseBuilder } from './response.js';

/** The refusal shape of an action on a point: it reads like every other report, with nothing dispatched. */
export const NO_DISPATCH = {
  dispatched: null,
  hitNow: null,
  hitAtCapture: null,
  mutationsSinceFrame: null,
  frameAgeMs: null,
};

/** A checked action's report as a tool result: the verdict and its sentence first, isError unless OK. */
export function reportResult(report: ClickReport, extra: string[] = []): CallToolResult {
  const b = new ResponseBuilder().line(`${report.verdict}: ${report.message}`);
  for (const line of extra) b.line(line);
  b.structuredContent(report);
  if (report.verdict !== 'OK') b.isError();
  return b.build();
}

/** Turns the args the schema let through into a request: absent optionals stay absent. */
export function request<T>(args: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined) out[k] = v;
  return out as T;
}
