// trueclick as a library: the same session, frames and verdicts the MCP tools use.
export type { ClickRequest } from './actions/click.js';
export { ActionError } from './actions/errors.js';
export type { Expect } from './actions/expect.js';
export { type Screenshot, type SessionOptions, TrueclickSession } from './actions/session.js';
export type { ClickReport, Verdict } from './actions/verdicts.js';
export type { Hit } from './browser/element-facts.js';
export { BrowserError } from './browser/errors.js';
export * as geometry from './geometry/index.js';
export { createMcpServer } from './mcp/server.js';
export { trueclickForPage } from './playwright.js';
