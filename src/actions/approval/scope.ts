import { AsyncLocalStorage } from 'node:async_hooks';
import type { Approver } from './gate.js';

/**
 * The approver of the call under way, where the route to the person belongs to the call (an MCP request's
 * own elicitation), not to the session: set around the call, read by the press inside it.
 */
export const approvalScope = new AsyncLocalStorage<Approver>();
