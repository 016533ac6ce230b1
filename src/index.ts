// trueclick as a library: the same session, frames and verdicts the MCP tools use.

export type { ActRequest, ActResult, StepOutcome, StepStatus } from './actions/act/act.js';
export { runAct } from './actions/act/act.js';
export { familyReply } from './actions/act/act-reply.js';
export type { ApprovalRequest } from './actions/approval/request.js';
export type { ApprovePresses } from './actions/approval/rule.js';
export { ActionError } from './actions/check/errors.js';
export type { Expect } from './actions/check/expect.js';
export {
  type ClickReport,
  ERROR_VERDICTS,
  type ErrorVerdict,
  type Verdict,
} from './actions/check/verdicts.js';
export type { Effects } from './actions/session/page-watch.js';
export { type Screenshot, type SessionOptions, TrueclickSession } from './actions/session/session.js';
export type { DialogAnswer, UploadResult } from './actions/verbs/answers.js';
export type { ClickRequest } from './actions/verbs/click.js';
export type { DragEnd, DragReport, DragRequest } from './actions/verbs/drag.js';
export type { ScrollReport } from './actions/verbs/scroll.js';
export type { SelectReport } from './actions/verbs/select.js';
export type { TabInfo } from './actions/verbs/tabs.js';
export type { WaitRequest, WaitResult } from './actions/verbs/wait.js';
export type { ZoomRequest } from './actions/verbs/zoom.js';
export type { Hit } from './browser/identity/element-facts.js';
export { BrowserError } from './browser/plumbing/errors.js';
export type { DialogInfo } from './browser/plumbing/page-events.js';
export * as geometry from './geometry/index.js';
export { TrueclickError } from './geometry/index.js';
export { createMcpServer } from './mcp/server.js';
export * as native from './native/index.js';
export { trueclickForPage } from './playwright.js';
