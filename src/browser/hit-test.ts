import type { ElementFacts } from './element-facts.js';
import { BrowserError } from './errors.js';
import { INSPECT_AND_ARM } from './guard-script.js';
import type { PageDriver } from './page-driver.js';

export interface LiveFacts extends ElementFacts {
  armedAt: number;
  mutations: number;
  /** Whether a click at the point reaches this element (it, or something inside it, is topmost there). */
  underPoint: boolean;
  /** What is topmost at the point instead, when that is not this element. */
  onTop?: Omit<ElementFacts, 'backendNodeId'>;
  matchesSelector?: boolean;
  selectorError?: string;
}

/**
 * Hit-tests a viewport point with CDP (no page-world script, so a CSP-strict page works), reads what is
 * there from trueclick's isolated world and arms the in-flight guard for exactly that element.
 * DOM.getNodeForLocation takes document coordinates, hence the scroll.
 */
export async function inspectAndArm(
  driver: PageDriver,
  point: { x: number; y: number },
  scroll: { x: number; y: number },
  opts: { armMs: number; selector?: string },
): Promise<LiveFacts | null> {
  let backendNodeId: number;
  try {
    const r = await driver.send('DOM.getNodeForLocation', {
      x: Math.round(point.x + scroll.x),
      y: Math.round(point.y + scroll.y),
      includeUserAgentShadowDOM: false,
      ignorePointerEventsNone: false,
    });
    backendNodeId = r.backendNodeId;
    if (r.frameId && r.frameId !== driver.mainFrameId) {
      // The point is inside an iframe: the main document (its snapshot and guard) sees the iframe element.
      backendNodeId = (await driver.send('DOM.getFrameOwner', { frameId: r.frameId })).backendNodeId;
    }
  } catch (err) {
    if (/No node found/i.test((err as Error).message)) return null;
    throw err;
  }
  return armOn(driver, backendNodeId, point, opts);
}

/**
 * Reads one element's facts in the isolated world and arms the guard for it; also says whether the element
 * is what a click at the point would reach. Used directly for mark clicks, which target an element by identity.
 */
export async function armOn(
  driver: PageDriver,
  backendNodeId: number,
  point: { x: number; y: number },
  opts: { armMs: number; selector?: string },
): Promise<LiveFacts | null> {
  const executionContextId = await driver.isolatedWorld();
  const objectId = await driver
    .send('DOM.resolveNode', { backendNodeId, executionContextId })
    .then((r) => r.object.objectId)
    .catch((err: unknown) => {
      // A node that left the document is an answer ("nothing there"); a dead tab or a timeout is not.
      if (
        err instanceof BrowserError &&
        err.code === 'CDP_ERROR' &&
        /No node with given id|not found/i.test(err.message)
      )
        return undefined;
      throw err;
    });
  if (!objectId) return null;
  const r = await driver.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: INSPECT_AND_ARM,
    arguments: [
      { value: point.x },
      { value: point.y },
      { value: opts.armMs },
      { value: opts.selector ?? null },
    ],
    returnByValue: true,
  });
  void driver.cdp.send('Runtime.releaseObject', { objectId }).catch(() => {});
  if (r.exceptionDetails) return null;
  return { ...(r.result.value as Omit<LiveFacts, 'backendNodeId'>), backendNodeId };
}

export interface GuardEvent {
  type: string;
  t: number;
  delivered: boolean;
  target: Omit<ElementFacts, 'backendNodeId'> | null;
}

export async function disarm(driver: PageDriver): Promise<{ armedAt: number; events: GuardEvent[] } | null> {
  return driver.evaluate('window.__trueclick.disarm()');
}

/** Whether a node captured earlier is still in the document (and where it is now, CSS viewport px). */
export async function nodeNow(
  driver: PageDriver,
  backendNodeId: number,
): Promise<(Omit<ElementFacts, 'backendNodeId'> & { connected: boolean }) | null> {
  try {
    const executionContextId = await driver.isolatedWorld();
    const { object } = await driver.send('DOM.resolveNode', { backendNodeId, executionContextId });
    if (!object.objectId) return null;
    const r = await driver.send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration:
        'function () { const f = window.__trueclick.facts(this); f.connected = this.isConnected; return f; }',
      returnByValue: true,
    });
    void driver.cdp.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    return r.exceptionDetails
      ? null
      : (r.result.value as Omit<ElementFacts, 'backendNodeId'> & { connected: boolean });
  } catch {
    return null;
  }
}
