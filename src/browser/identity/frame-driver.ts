import { nullIfNavigated } from '../plumbing/errors.js';
// Which CDP session and frame hold a frame id, and where that frame's viewport sits in the page's: the
// frames of the page's own process and cross-site ones (out-of-process, each with its own session).
import type { PageDriver } from '../plumbing/page-driver.js';
import type { ElementFacts } from './element-facts.js';
import {
  compose,
  type FramePlace,
  isTranslation,
  mapBox,
  placeAt,
  placeFromBoxModel,
} from './frame-place.js';
import { remoteFrames } from './remote-frames.js';

/** Where an iframe element's content sits in the viewport of the session that holds it (through its transform). */
export async function contentPlace(driver: PageDriver, ownerBackendNodeId: number): Promise<FramePlace> {
  const { model } = await driver.send('DOM.getBoxModel', { backendNodeId: ownerBackendNodeId });
  return placeFromBoxModel(model);
}

/** Rects read in a frame's own viewport, moved into the page's (in place). */
export function shiftRects(f: Omit<ElementFacts, 'backendNodeId'>, place: FramePlace): void {
  if (isTranslation(place) && place.origin.x === 0 && place.origin.y === 0) return;
  if (f.rect) f.rect = mapBox(place, f.rect);
  if (f.actionable?.rect) f.actionable.rect = mapBox(place, f.actionable.rect);
}

/**
 * Calls `fn` on a node in trueclick's world of its frame, by value: null when the node is gone, its document
 * went away under the call, or `fn` threw.
 */
export async function callOnNode<T>(
  driver: PageDriver,
  frameId: string,
  backendNodeId: number,
  fn: string,
  args: unknown[] = [],
): Promise<T | null> {
  const executionContextId = await driver.isolatedWorld(frameId);
  const { object } = await driver
    .send('DOM.resolveNode', { backendNodeId, executionContextId })
    .catch(() => ({ object: { objectId: undefined } }));
  if (!object.objectId) return null;
  const r = await driver
    .send('Runtime.callFunctionOn', {
      objectId: object.objectId,
      functionDeclaration: fn,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
    })
    .catch(nullIfNavigated);
  void driver.cdp.send('Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  return !r || r.exceptionDetails ? null : (r.result.value as T);
}

/** Whether a node captured earlier is still in the document (and where it is now, CSS viewport px). */
export async function nodeNow(
  driver: PageDriver,
  backendNodeId: number,
  frame?: string,
): Promise<(Omit<ElementFacts, 'backendNodeId'> & { connected: boolean }) | null> {
  try {
    const where = await frameDriver(driver, frame);
    if (!where) return null;
    const f = await callOnNode<Omit<ElementFacts, 'backendNodeId'> & { connected: boolean }>(
      where.driver,
      where.frameId,
      backendNodeId,
      'function () { const f = window.__trueclick.facts(this); f.connected = this.isConnected; return f; }',
    );
    if (!f) return null;
    shiftRects(f, where.place);
    if (frame) f.frame = frame;
    return f;
  } catch {
    return null;
  }
}

/** The session and frame that hold a frame id ('' or undefined: the page), and its origin in the page's viewport. */
export async function frameDriver(
  driver: PageDriver,
  frame: string | undefined,
): Promise<{ driver: PageDriver; frameId: string; place: FramePlace } | null> {
  if (!frame || frame === driver.mainFrameId)
    return { driver, frameId: driver.mainFrameId, place: placeAt(0, 0) };
  const remotes = await remoteFrames(driver);
  // Where each session's viewport sits in the page's: through the chain of <iframe>s that hold it.
  const placeOf = async (d: PageDriver, depth = 0): Promise<FramePlace | null> => {
    if (d === driver) return placeAt(0, 0);
    const r = remotes.find((x) => x.driver === d);
    if (!r || depth > 8) return null;
    const outer = await placeOf(r.holder, depth + 1);
    return outer && compose(outer, await contentPlace(r.holder, r.ownerBackendNodeId));
  };
  const own = remotes.find((r) => r.frameId === frame);
  if (own) {
    const place = await placeOf(own.driver);
    return place && { driver: own.driver, frameId: frame, place };
  }
  // A same-process frame of the page, or of a cross-site frame: the session holding it also holds its <iframe>.
  for (const d of [driver, ...remotes.map((r) => r.driver)]) {
    const owner = await d.send('DOM.getFrameOwner', { frameId: frame }).catch(() => null);
    if (!owner) continue;
    const outer = await placeOf(d);
    if (!outer) continue;
    return { driver: d, frameId: frame, place: compose(outer, await contentPlace(d, owner.backendNodeId)) };
  }
  return null;
}
