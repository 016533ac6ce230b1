// A scene: one corpus page recorded once in real Chromium (record.ts, `npm run record`): the frame the model
// would have read, the DOM snapshot taken with it, where the targets were (the page's own word, through
// Playwright locators), and what the page's live identity kit read at those points after each change. The
// tests beside this file run the middle of trueclick on it (the record finder, the fingerprint comparison,
// the verdict rules) without a browser, in milliseconds.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import type { Attempt, Intent } from '../../src/actions/check/attempt.js';
import type { TargetNow } from '../../src/actions/check/check.js';
import { MissLog } from '../../src/actions/check/misses.js';
import type { ClickRequest } from '../../src/actions/check/target.js';
import type { ClickReport } from '../../src/actions/check/verdicts.js';
import type { FrameInfo, FrameRecord } from '../../src/actions/session/frames.js';
import { toHit } from '../../src/browser/identity/element-facts.js';
import type { LiveFacts } from '../../src/browser/identity/hit-test.js';
import {
  type Measurement,
  type SnapshotElement,
  SnapshotIndex,
} from '../../src/browser/snapshot/snapshot.js';

/** What the live kit read at a point, less what ties it to a running page (its session, its arming). */
export type Facts = Omit<LiveFacts, 'at' | 'token'>;

export interface Step {
  /** What happened to the page before these looks: `still` (nothing), a corpus command, `hover:<target>`, `wait:<ms>`. */
  change: string;
  /** The first look at each target's point, as the pipeline takes it before its pointer moves (null: nothing there). */
  looks: Record<string, Facts | null>;
  /** The same point looked at through `pointer-events: none` and inert content (lookThrough). */
  through: Record<string, Facts | null>;
  /** Where the element each target's point held at capture is now (nodeNow). */
  nodes: Record<string, TargetNow | null>;
}

export interface Scene {
  name: string;
  about: string;
  /** The corpus page and its query, as served by the fixture server. */
  url: string;
  frame: FrameInfo;
  snapshot: {
    data: Protocol.DOMSnapshot.CaptureSnapshotResponse;
    devicePerCss: number;
    measurements: Measurement[];
  };
  /** Each target's centre (CSS px of the viewport at capture), read from the page by a Playwright locator. */
  targets: Record<string, { x: number; y: number; selector: string }>;
  steps: Step[];
}

export const DATA_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../test/recorded/data');

export function sceneNames(): string[] {
  return readdirSync(DATA_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));
}

const loaded = new Map<string, Scene>();

export function loadScene(name: string): Scene {
  let s = loaded.get(name);
  if (!s) {
    s = JSON.parse(readFileSync(join(DATA_DIR, `${name}.json`), 'utf8')) as Scene;
    loaded.set(name, s);
  }
  return s;
}

/** The frame's snapshot index, built from the recorded snapshot as the capture builds it. */
export function indexOf(scene: Scene): SnapshotIndex {
  const { frame, snapshot } = scene;
  const view = { ...frame.geometry.scroll, ...frame.geometry.css };
  const index = new SnapshotIndex(snapshot.data, snapshot.devicePerCss, [], view);
  index.restoreMeasurements(snapshot.measurements);
  return index;
}

export function frameOf(scene: Scene, index = indexOf(scene)): FrameRecord {
  return { ...scene.frame, capture: { ...scene.frame.capture, snapshot: index }, image: null };
}

type Point = { x: number; y: number };

function targetPoint(scene: Scene, target: string): Point {
  const t = scene.targets[target];
  if (!t) throw new Error(`scene ${scene.name} has no target ${target}`);
  return { x: t.x, y: t.y };
}

/** A viewport point (a target's, by default) in page CSS px, whole px as the pipeline rounds it. */
export function pagePoint(scene: Scene, target: string, at = targetPoint(scene, target)): Point {
  const t = at;
  const s = scene.frame.geometry.scroll;
  return { x: Math.round(t.x + s.x), y: Math.round(t.y + s.y) };
}

/** What the frame says the target's point held at capture. */
export function capturedAt(
  scene: Scene,
  target: string,
  index = indexOf(scene),
  at = targetPoint(scene, target),
): SnapshotElement {
  const p = pagePoint(scene, target, at);
  const el = index.topmostAt(p.x, p.y);
  if (!el) throw new Error(`scene ${scene.name}: nothing at ${target}`);
  return el;
}

export function step(scene: Scene, change: string): Step {
  const s = scene.steps.find((x) => x.change === change);
  if (!s) throw new Error(`scene ${scene.name} has no step ${change}`);
  return s;
}

export function look(s: Step, target: string): LiveFacts | null {
  return (s.looks[target] ?? null) as LiveFacts | null;
}

const asked: string[] = [];

/**
 * No browser here: an attempt whose driver answers nothing. A rule that reaches for the page gets an error,
 * and, since some callers swallow errors (nodeNow answers null), what it asked is also kept for `browserAsked`.
 */
const noBrowser = new Proxy(
  {},
  {
    get(_t, key) {
      asked.push(String(key));
      throw new Error(`a browser-free rule asked the driver for ${String(key)}`);
    },
  },
) as Attempt['ctx']['driver'];

/** What rules asked of the driver since the last call (and forgets it): [] when they judged from the records. */
export function browserAsked(): string[] {
  return asked.splice(0);
}

/**
 * One click at a target's point (or at `at`, viewport CSS px, beside it), through the stages up to the
 * verdict, as the pipeline fills the attempt.
 */
export function attemptAt(
  scene: Scene,
  target: string,
  opts: {
    req?: Partial<ClickRequest>;
    intent?: Intent;
    misses?: MissLog;
    index?: SnapshotIndex;
    at?: Point;
  } = {},
): Attempt {
  const index = opts.index ?? indexOf(scene);
  const frame = frameOf(scene, index);
  const point = opts.at ?? targetPoint(scene, target);
  const captured = capturedAt(scene, target, index, point);
  const { geometry } = scene.frame;
  const report: ClickReport = {
    verdict: 'OK',
    message: '',
    dispatched: null,
    frame: frame.id,
    point,
    imagePoint: {
      x: (point.x * geometry.image.width) / geometry.css.width,
      y: (point.y * geometry.image.height) / geometry.css.height,
    },
    hitNow: null,
    hitAtCapture: toHit(captured.facts),
    mutationsSinceFrame: null,
    frameAgeMs: 600,
  };
  const req = { frame: frame.id, x: report.imagePoint?.x ?? 0, y: report.imagePoint?.y ?? 0, ...opts.req };
  return {
    ctx: { driver: noBrowser, frames: undefined as never, misses: opts.misses ?? new MissLog(), tab: 1 },
    req: req as ClickRequest,
    intent: opts.intent ?? { kind: 'click', button: 'left', count: 1, modifiers: [] },
    resolved: { frame, point, imagePoint: report.imagePoint },
    frame,
    byMark: false,
    page: pagePoint(scene, target, point),
    vp: point,
    scrollNow: geometry.scroll,
    viewport: geometry.css,
    captured,
    seen: null,
    live: null,
    pixelStage: null,
    report,
  };
}

/** The attempt after a first look at the step's page (and, for a press, the armed look after the pointer). */
export function withLooks(a: Attempt, seen: LiveFacts | null, live: LiveFacts | null = null): Attempt {
  a.seen = seen;
  a.live = live;
  const now = live ?? seen;
  a.report.hitNow = now ? toHit(now) : null;
  return a;
}
