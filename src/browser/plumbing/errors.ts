import { type ErrorKind, TrueclickError } from '../../geometry/index.js';

export type BrowserErrorCode =
  | 'NO_BROWSER'
  | 'LAUNCH_FAILED'
  | 'CONNECT_FAILED'
  | 'NOT_SHARED'
  | 'TIMEOUT'
  | 'PAGE_CLOSED'
  | 'CAPTURE_FAILED'
  | 'NAVIGATION_FAILED'
  | 'CANCELLED'
  | 'CDP_ERROR';

const KIND: Record<BrowserErrorCode, ErrorKind> = {
  NO_BROWSER: 'browser_gone',
  LAUNCH_FAILED: 'browser_gone',
  CONNECT_FAILED: 'browser_gone',
  NOT_SHARED: 'browser_gone',
  PAGE_CLOSED: 'browser_gone',
  TIMEOUT: 'timeout',
  NAVIGATION_FAILED: 'bad_input',
  CANCELLED: 'bad_input',
  CAPTURE_FAILED: 'internal',
  CDP_ERROR: 'internal',
};

/** A browser-side failure the agent can act on: `hint` says what to do next. */
export class BrowserError extends TrueclickError {
  declare readonly code: BrowserErrorCode;

  constructor(code: BrowserErrorCode, problem: string, hint: string) {
    super(code, problem, hint, undefined, KIND[code]);
    this.name = 'BrowserError';
  }
}

/** Every CDP wait gets a budget: a hung renderer must turn into an answer, not a stuck tool call. */
export async function withBudget<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new BrowserError(
            'TIMEOUT',
            `${what} did not answer within ${ms} ms`,
            'The page may be busy or hung; retry, or navigate again.',
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function isTargetClosed(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /Target (page, context or browser )?(has been )?closed|Session closed|Browser has been closed|browser has disconnected|Target crashed/i.test(
    m,
  );
}

/**
 * Chromium's answers to a read whose document went away under it: the next document committed (a link, a
 * reload, a form's answer), so the read is to be made again of the new one, not reported.
 */
export function lostToNavigation(err: unknown): boolean {
  const m = err instanceof Error ? err.message : String(err);
  return /Cannot find context with specified id|Execution context was destroyed|Not attached to an active page|Inspected target navigated or closed|does not belong to the document/i.test(
    m,
  );
}

/** For a read made after an action was sent: a document gone under it reads as nothing there (null). */
export function nullIfNavigated(err: unknown): null {
  if (lostToNavigation(err)) return null;
  throw err;
}

/** Polls a condition every `stepMs` until it holds or `budgetMs` runs out; says which. */
export async function pollUntil(cond: () => boolean, budgetMs: number, stepMs: number): Promise<boolean> {
  const end = Date.now() + budgetMs;
  while (!cond()) {
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return true;
}

/**
 * Waits `ms`, or less when `signal` aborts: a signal already aborted (the client cancelled while the call
 * was still being set up) ends it at once, since its abort event will not fire again.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Resolves when `signal` aborts (at once if it already has); never, without one. */
export function aborted(signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise(() => {});
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
