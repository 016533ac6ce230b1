// What is at a viewport point now: CDP's hit-test followed into the frame that holds the point, the page's
// own look beside it, and the in-flight guard armed on the element found (its end is guard-end.ts).
import { BrowserError } from '../plumbing/errors.js';
import type { PageDriver } from '../plumbing/page-driver.js';
import type { ElementFacts } from './element-facts.js';
import { contentPlace, shiftRects } from './frame-driver.js';
import { compose, type FramePlace, isTranslation, placeAt, toInner } from './frame-place.js';
import { CANONICAL, INSPECT_AND_ARM, rearmExpression } from './guard-script.js';
import { remoteFrame } from './remote-frames.js';

export type { GuardEvent } from '../plumbing/page-driver.js';

type Point = { x: number; y: number };

export interface LiveFacts extends ElementFacts {
  armedAt: number;
  mutations: number;
  /** The trusted mouse moves the page had seen when it was read (the page's own document). */
  moves?: number;
  /** Whether a click at the point reaches this element (it, or something inside it, is topmost there). */
  underPoint: boolean;
  /** What is topmost at the point instead, when that is not this element. */
  onTop?: Omit<ElementFacts, 'backendNodeId'>;
  matchesSelector?: boolean;
  selectorError?: string;
  /** Where the guard is armed: which session, which frame, and the point in that frame's viewport. */
  at: LiveTarget;
  /** The arming's token: the guard reports its events under it. */
  token: string;
}

/** A node in one frame of the page, and the clicked point in that frame's own CSS viewport px. */
export interface LiveTarget {
  driver: PageDriver;
  frameId: string;
  backendNodeId: number;
  local: Point;
  /** Where the frame's viewport sits in the page's (placeAt(0, 0) for the page): page px = toOuter(place, local). */
  place: FramePlace;
}

let tokens = 0;

const noNode = (err: unknown) =>
  err instanceof BrowserError &&
  err.code === 'CDP_ERROR' &&
  /No node (found|with given id)|not found/i.test(err.message);

/**
 * Hit-tests a viewport point with CDP (no page-world script, so a CSP-strict page works) and follows it
 * into the iframe that holds it: a same-process iframe's node comes back directly, a cross-site one is
 * hit-tested again through its own session. DOM.getNodeForLocation takes document coordinates.
 */
export async function locate(
  driver: PageDriver,
  point: Point,
  scroll: Point,
  throughNone = false,
): Promise<LiveTarget | null> {
  let r: { backendNodeId: number; frameId?: string };
  try {
    r = await driver.send('DOM.getNodeForLocation', {
      x: Math.round(point.x + scroll.x),
      y: Math.round(point.y + scroll.y),
      includeUserAgentShadowDOM: false,
      ignorePointerEventsNone: throughNone,
    });
  } catch (err) {
    if (noNode(err)) return null;
    throw err;
  }
  const frameId = r.frameId ?? driver.mainFrameId;
  // A frame of this session's process: the page's own iframes, or one inside a cross-site iframe (its
  // session sees its own process's frames as the page's does).
  if (frameId !== driver.mainFrameId) {
    const owner = await driver.send('DOM.getFrameOwner', { frameId });
    const place = await contentPlace(driver, owner.backendNodeId);
    return { driver, frameId, backendNodeId: r.backendNodeId, local: toInner(place, point), place };
  }
  if (driver.page.frames().length > 1) {
    const { node } = await driver.send('DOM.describeNode', { backendNodeId: r.backendNodeId });
    const remote =
      node.frameId && node.nodeName === 'IFRAME' ? await remoteFrame(driver, node.frameId) : undefined;
    if (remote) {
      const place = await contentPlace(driver, r.backendNodeId);
      // From the whole px the page was hit-tested at, as the frame's snapshot is read.
      const hit = {
        x: Math.round(point.x + scroll.x) - scroll.x,
        y: Math.round(point.y + scroll.y) - scroll.y,
      };
      const local = isTranslation(place) ? toInner(place, point) : toInner(place, hit);
      const [sx, sy] = await remote.driver.evaluate<[number, number]>('[scrollX, scrollY]');
      const inner = await locate(remote.driver, local, { x: sx, y: sy }, throughNone);
      if (inner) return { ...inner, place: compose(place, inner.place) };
    }
  }
  return { driver, frameId, backendNodeId: r.backendNodeId, local: point, place: placeAt(0, 0) };
}

/** Whether a hit-test found its node in the page's own document (not in a frame). */
const inPage = (t: LiveTarget, driver: PageDriver) => t.driver === driver && t.frameId === driver.mainFrameId;

/**
 * The first look (nothing armed) in one round trip instead of three: CDP's hit-test goes out beside the
 * page's own (`lookAt`, through open shadow roots), whose answer carries the facts and, by deep
 * serialization, the nodes it read. When CDP named the very node the page's hit-test found, those facts
 * stand; otherwise (a closed shadow root, a frame, a text box) the node CDP named is read the full way.
 */
export async function firstLook(
  driver: PageDriver,
  point: Point,
  scroll: Point,
  selector?: string,
): Promise<{ facts?: LiveFacts | null; view: PageView | null }> {
  const token = `t${++tokens}`;
  const [target, here] = await Promise.all([
    locate(driver, point, scroll),
    lookAt(driver, point, selector, token).catch(() => null),
  ]);
  const view = here?.view ?? null;
  // Scrolled since the frame: the caller looks where the point is now, so nothing more is read here.
  if (view && (view.scroll.x !== scroll.x || view.scroll.y !== scroll.y)) return { view };
  if (!target) return { facts: null, view };
  if (here?.read && inPage(target, driver) && here.read.raw === target.backendNodeId)
    return { facts: liveFacts(here.read.facts, { ...target, backendNodeId: here.read.el }, token), view };
  return { facts: await armOn(target, { armMs: 0, selector }), view };
}

/** The page's viewport as its own script reads it: CSS size and scroll offset (of the visual viewport). */
export interface PageView {
  width: number;
  height: number;
  scroll: Point;
}

type DeepValue = { type: string; value?: unknown; weakLocalObjectReference?: number };

/**
 * The page keeps each look's answer until it is released. One release per click was one more CDP command
 * before the pointer moves (about half a millisecond of playwright-core's dispatch in this process): the
 * answers are released together, every LOOKS_KEPT looks.
 */
const LOOK_GROUP = 'trueclick-look';
const LOOKS_KEPT = 32;
const looksHeld = new WeakMap<PageDriver, number>();
function releaseLooks(driver: PageDriver): void {
  const n = (looksHeld.get(driver) ?? 0) + 1;
  looksHeld.set(driver, n % LOOKS_KEPT);
  if (n < LOOKS_KEPT) return;
  void driver.cdp.send('Runtime.releaseObjectGroup', { objectGroup: LOOK_GROUP }).catch(() => {});
}

/** The page's own hit-test and look at a viewport point of the page's document; null when nothing is there. */
async function lookAt(
  driver: PageDriver,
  p: Point,
  selector: string | undefined,
  token: string,
): Promise<{ view: PageView; read?: { facts: ReadFacts; el: number; raw: number } } | null> {
  const contextId = await driver.isolatedWorld();
  const args = [p.x, p.y, selector ?? null, token].map((v) => JSON.stringify(v)).join(', ');
  const r = await driver.send('Runtime.evaluate', {
    expression: `window.__trueclick.lookAt(${args})`,
    contextId,
    objectGroup: LOOK_GROUP,
    // Nodes come back with their backendNodeId; their children are not serialized.
    serializationOptions: { serialization: 'deep', maxDepth: 2, additionalParameters: { maxNodeDepth: 0 } },
  });
  if (r.result.objectId) releaseLooks(driver);
  const deep = r.result.deepSerializedValue;
  if (r.exceptionDetails || deep?.type !== 'object') return null;
  const parts = new Map(deep.value as [string, DeepValue][]);
  // A node serialized twice comes back the second time as a reference to the first.
  const byRef = new Map(
    [...parts.values()].filter((v) => v.value).map((v) => [v.weakLocalObjectReference, v.value]),
  );
  const node = (k: string) => {
    const v = parts.get(k);
    return ((v?.value ?? byRef.get(v?.weakLocalObjectReference)) as { backendNodeId?: number } | undefined)
      ?.backendNodeId;
  };
  const v = (parts.get('view')?.value as DeepValue[] | undefined)?.map((n) => n.value);
  if (v?.length !== 4 || v.some((n) => typeof n !== 'number')) return null;
  const [width, height, x, y] = v as number[];
  const view = { width, height, scroll: { x, y } } as PageView;
  const json = parts.get('json')?.value;
  const el = node('el');
  const raw = node('raw');
  if (typeof json !== 'string' || el === undefined || raw === undefined) return { view };
  return { view, read: { facts: JSON.parse(json) as ReadFacts, el, raw } };
}

/** Hit-tests the point (into iframes) and arms the guard on what is there. */
export async function inspectAndArm(
  driver: PageDriver,
  point: Point,
  scroll: Point,
  opts: ArmOptions,
): Promise<LiveFacts | null> {
  const target = await locate(driver, point, scroll);
  return target ? armOn(target, opts) : null;
}

/**
 * What the eye sees at the point where a click passes through it: the element hit-testing finds when
 * `pointer-events: none` and inert content count (a disabled Bootstrap button, a page inert behind a
 * dialog). Looked at only, never armed. Null too when it is the page's node `actingOn`: nothing lies over
 * the element acted on, and reading it again would cost two round trips.
 */
export async function lookThrough(
  driver: PageDriver,
  point: Point,
  scroll: Point,
  actingOn?: number,
): Promise<LiveFacts | null> {
  const target = await locate(driver, point, scroll, true);
  if (!target) return null;
  if (inPage(target, driver) && target.backendNodeId === actingOn) return null;
  return armOn(target, { armMs: 0 });
}

/**
 * Reads one element's facts in the isolated world of its frame and arms the guard for it; also says whether
 * the element is what a click at the point would reach. Used directly for mark clicks, which target an
 * element by identity.
 */
export interface ArmOptions {
  /** How long the guard stays armed; 0 = look only. */
  armMs: number;
  selector?: string | undefined;
  /** A drag: judge only the press. */
  pressOnly?: boolean;
  /** Record parts already seen ticking in place: the armed guard lets them tick between check and press. */
  ticking?: TickingParts;
}

/** Which of a record's parts tick (indexes into its `recordParts`), for a record of `count` parts. */
export interface TickingParts {
  count: number;
  indexes: number[];
}

export async function armOn(target: LiveTarget, opts: ArmOptions): Promise<LiveFacts | null> {
  const { driver, frameId, local } = target;
  const executionContextId = await driver.isolatedWorld(frameId);
  const objectId = await driver
    .send('DOM.resolveNode', { backendNodeId: target.backendNodeId, executionContextId })
    .then((r) => r.object.objectId)
    .catch((err: unknown) => {
      // A node that left the document is an answer ("nothing there"); a dead tab or a timeout is not.
      if (noNode(err)) return undefined;
      throw err;
    });
  if (!objectId) return null;
  const token = `t${++tokens}`;
  const r = await driver.send('Runtime.callFunctionOn', {
    objectId,
    functionDeclaration: INSPECT_AND_ARM,
    arguments: [
      { value: local.x },
      { value: local.y },
      { value: opts.armMs },
      { value: opts.selector ?? null },
      { value: token },
      { value: opts.pressOnly ?? false },
      { value: opts.ticking ?? null },
    ],
    returnByValue: true,
  });
  if (r.exceptionDetails) {
    void driver.cdp.send('Runtime.releaseObject', { objectId }).catch(() => {});
    return null;
  }
  const value = r.result.value as Omit<LiveFacts, 'backendNodeId' | 'at' | 'token'> & {
    retargeted?: boolean;
  };
  let backendNodeId = target.backendNodeId;
  if (value.retargeted) {
    // The guard armed the shadow host: name that node, as the snapshot does.
    const host = await driver.send('Runtime.callFunctionOn', { objectId, functionDeclaration: CANONICAL });
    if (host.result.objectId) {
      backendNodeId = (await driver.send('DOM.describeNode', { objectId: host.result.objectId })).node
        .backendNodeId;
      void driver.cdp.send('Runtime.releaseObject', { objectId: host.result.objectId }).catch(() => {});
    }
  }
  void driver.cdp.send('Runtime.releaseObject', { objectId }).catch(() => {});
  const { retargeted: _r, ...facts } = value;
  return liveFacts(facts, { ...target, backendNodeId }, token);
}

type ReadFacts = Omit<LiveFacts, 'backendNodeId' | 'at' | 'token'>;

function liveFacts(facts: ReadFacts, at: LiveTarget, token: string): LiveFacts {
  const out: LiveFacts = { ...facts, backendNodeId: at.backendNodeId, at, token };
  // Rects come in the frame's own viewport: report them in the page's, like every other number.
  shiftRects(out, at.place);
  if (out.onTop) shiftRects(out.onTop, at.place);
  // The page's own document has no frame name; a cross-site iframe's driver calls its document "main".
  if (at.driver.remote || at.frameId !== at.driver.mainFrameId) out.frame = at.frameId;
  else delete out.frame;
  return out;
}

/**
 * Looks again at what an earlier look in the page's own document read (`seen`), in one call, when the
 * page's hit-test still finds exactly that element at the point (CSS viewport px); null when it does not (or the element is
 * in a frame), and then the caller hit-tests anew with inspectAndArm.
 */
export async function rearm(
  seen: LiveFacts,
  point: Point,
  opts: ArmOptions,
  afterMove = false,
): Promise<LiveFacts | null> {
  const { at } = seen;
  if (seen.frame || at.driver.remote || at.frameId !== at.driver.mainFrameId) return null;
  if (afterMove && seen.moves === undefined) return null;
  const token = `t${++tokens}`;
  const args = [point.x, point.y, opts.armMs, opts.selector, token, opts.pressOnly ?? false, opts.ticking];
  const expression = rearmExpression(seen.token, args, afterMove ? seen.moves : undefined);
  const facts = await at.driver.evaluate<ReadFacts | null>(expression, at.frameId, afterMove);
  return facts ? liveFacts(facts, { ...at, local: point }, token) : null;
}
