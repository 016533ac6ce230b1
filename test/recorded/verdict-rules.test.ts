// The verdict rules on recorded corpus pages, without a browser: an attempt is filled as the pipeline fills it
// (what the frame held at the point, the first look, the armed look after the pointer, where the captured
// element is now, the look through pointer-events: none), all recorded from the page, and the rules decide.
// The attempt's driver throws when touched, so each verdict here is reached from the records alone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  blockedThrough,
  finalChecks,
  heldAtCapture,
  judgeSeen,
  missedAtCapture,
  seenRefusal,
  throughVerdict,
} from '../../src/actions/check/check.js';
import { judgeHover } from '../../src/actions/check/living.js';
import { MissLog } from '../../src/actions/check/misses.js';
import { judge } from '../../src/browser/identity/compare-facts.js';
import { attemptAt, browserAsked, loadScene, look, step, withLooks } from './scene.js';

/** The first look after `change` judged against the frame, and the refusal the rules give it. */
function refusalAfter(name: string, change: string, target: string) {
  const scene = loadScene(name);
  const s = step(scene, change);
  const a = withLooks(attemptAt(scene, target), look(s, target));
  const c = a.captured as NonNullable<typeof a.captured>;
  const diffs = a.seen ? judge(c.facts, a.seen, { distinct: c.doc.kit.uniqueParts(c.index) }).diffs : null;
  // As judgeSeen asks: where the captured element is now matters only when something new holds the point.
  const targetNow = a.seen && !heldAtCapture(a, a.seen) ? (s.nodes[target] ?? null) : null;
  return { a, s, refusal: seenRefusal(a, diffs, targetNow) };
}

describe('the first look against the frame (judgeSeen)', () => {
  test('a still page passes, and no rule asked the browser', async () => {
    for (const [name, target] of [
      ['grid-resort', 'delete'],
      ['list-resort', 'title'],
      ['components-relabel', 'open'],
      ['people-hover', 'follow'],
      ['frames-same', 'inner'],
    ] as const) {
      const scene = loadScene(name);
      const a = withLooks(attemptAt(scene, target), look(step(scene, 'still'), target));
      assert.equal(await judgeSeen(a), null, `${name} ${target}`);
    }
    assert.deepEqual(browserAsked(), []);
  });

  test('AG Grid re-sorted into the same row elements: STALE_TARGET naming both tickets', () => {
    const { refusal } = refusalAfter('grid-resort', 'resort', 'delete');
    assert.equal(refusal.verdict, 'STALE_TARGET');
    assert.match(refusal.message, /TCK-7741.*TCK-7883|TCK-7883.*TCK-7741/s);
    assert.match(refusal.message, /Take a new screenshot/);
    assert.ok(refusal.changes?.some((d) => d.field === 'record'));
  });

  test('rows re-sorted inside a same-origin iframe: STALE_TARGET from the frame’s own record', () => {
    const { refusal } = refusalAfter('frames-same', 'resortInner(same)', 'inner');
    assert.equal(refusal.verdict, 'STALE_TARGET');
    assert.match(refusal.message, /TCK-7740/);
  });

  test('React rows re-sorted: the link now at the point was elsewhere in the frame, and its own moved away: STALE_TARGET, not a cover', () => {
    const { refusal, s } = refusalAfter('list-resort', 'resort', 'archive');
    assert.equal(s.nodes.archive?.connected, true, 'the captured link is still in the page, elsewhere');
    assert.equal(refusal.verdict, 'STALE_TARGET');
    assert.match(refusal.message, /TCK-7741/);
  });

  test('a Bootstrap toast over Export, which is still there beneath it: COVERED, naming the toast', () => {
    const { refusal } = refusalAfter('overlays-toast', 'showToast', 'export');
    assert.equal(refusal.verdict, 'COVERED', refusal.message);
    assert.match(refusal.message, /now lies on top of the point; it was not there in frame f\d+/);
    assert.match(refusal.message, /Dismiss or wait out the cover/);
  });

  test('the same toast, had Export gone from under it: STALE_TARGET', () => {
    const scene = loadScene('overlays-toast');
    const s = step(scene, 'showToast');
    const a = withLooks(attemptAt(scene, 'export'), look(s, 'export'));
    const c = a.captured as NonNullable<typeof a.captured>;
    const diffs = judge(c.facts, a.seen as NonNullable<typeof a.seen>).diffs;
    assert.equal(seenRefusal(a, diffs, { connected: false }).verdict, 'STALE_TARGET');
  });
});

describe('the page’s answer to trueclick’s pointer (judgeHover)', () => {
  const jobs = loadScene('jobs-living');
  const ticking = (a: ReturnType<typeof attemptAt>) => {
    const parts = a.captured?.facts.recordParts ?? [];
    a.ticking = { count: parts.length, indexes: [parts.findIndex((p) => p.startsWith('t:Running for'))] };
    return a;
  };

  test('a hovered job row shows "Retry" where its time was: Cancel in that row passes, the change set aside as hover', () => {
    const a = ticking(attemptAt(jobs, 'cancel5'));
    withLooks(a, look(step(jobs, 'wait:150'), 'cancel5'), look(step(jobs, 'hover:when5'), 'cancel5'));
    const { refusal, setAside } = judgeHover(a);
    assert.equal(refusal, null, refusal?.message);
    assert.ok(setAside.some((s) => s.why === 'hover'));
  });

  test('the time the model meant is replaced by "Retry" under the pointer: COVERED, naming Retry', () => {
    const a = ticking(attemptAt(jobs, 'when5'));
    withLooks(a, look(step(jobs, 'wait:150'), 'when5'), look(step(jobs, 'hover:when5'), 'when5'));
    const { refusal } = judgeHover(a);
    assert.equal(refusal?.verdict, 'COVERED');
    assert.match(refusal?.message ?? '', /answered the hover by putting .*Retry/);
  });

  test('Lit: "Following" reads "Unfollow" under the pointer: the control’s own label, set aside', () => {
    const scene = loadScene('people-hover');
    const a = attemptAt(scene, 'follow');
    withLooks(a, look(step(scene, 'still'), 'follow'), look(step(scene, 'hover:follow'), 'follow'));
    const { refusal, setAside } = judgeHover(a);
    assert.equal(refusal, null, refusal?.message);
    assert.ok(setAside.some((s) => s.why === 'hover' && /Following/.test(s.was) && /Unfollow/.test(s.now)));
  });

  test('another job written into the row in those ms is not an answer to the pointer: STALE_TARGET', () => {
    const scene = loadScene('jobs-resort');
    const a = attemptAt(scene, 'cancel');
    withLooks(a, look(step(scene, 'still'), 'cancel'), look(step(scene, 'resort'), 'cancel'));
    assert.equal(judgeHover(a).refusal?.verdict, 'STALE_TARGET');
  });
});

describe('a control that cannot act (DISABLED), both directions', () => {
  test('Place order disabled after the frame (Bootstrap gives it pointer-events: none): DISABLED, it became so', () => {
    const { a, s, refusal } = refusalAfter('checkout-soldout', 'soldOut', 'place');
    assert.equal(refusal.verdict, 'STALE_TARGET', 'the point now reaches the form around it');
    const r = throughVerdict(a, refusal, s.through.place ?? null);
    assert.equal(r?.verdict, 'DISABLED');
    assert.deepEqual(r?.disabled, {
      reason: 'disabled',
      by: { tag: 'button', text: 'Place order' },
      inFrame: false,
    });
    assert.match(r?.message ?? '', /It became so after frame f\d+/);
  });

  test('already disabled in the frame: DISABLED, it was so in the frame too', () => {
    const scene = loadScene('checkout-soldout-before');
    const s = step(scene, 'still');
    const a = withLooks(attemptAt(scene, 'place'), look(s, 'place'));
    assert.equal(finalChecks(a), null, 'what the point reaches (the form) is not itself disabled');
    const r = throughVerdict(a, null, s.through.place ?? null);
    assert.equal(r?.disabled?.inFrame, true);
    assert.match(r?.message ?? '', /It was so in the frame too/);
  });

  test('a disabled fieldset and an aria-disabled link: DISABLED with their reasons; a hover on them is not refused', () => {
    const scene = loadScene('checkout-soldout');
    const s = step(scene, 'still');
    const express = withLooks(attemptAt(scene, 'express'), look(s, 'express'));
    assert.equal(throughVerdict(express, null, s.through.express ?? null)?.disabled?.reason, 'fieldset');
    // A press: the armed look after the pointer arrived is the one finalChecks judges (here, as the first).
    const gift = withLooks(attemptAt(scene, 'gift'), look(s, 'gift'), look(s, 'gift'));
    const r = finalChecks(gift);
    assert.equal(r?.disabled?.reason, 'aria-disabled');
    assert.equal(r?.disabled?.inFrame, true);
    const hover = withLooks(
      attemptAt(scene, 'gift', { intent: { kind: 'hover', modifiers: [] } }),
      look(s, 'gift'),
      look(s, 'gift'),
    );
    assert.equal(finalChecks(hover), null);
  });

  test('Place order enabled: nothing stops it, and a control at the point is not looked through', async () => {
    const scene = loadScene('checkout-soldout');
    const s = step(scene, 'still');
    const a = withLooks(attemptAt(scene, 'place'), look(s, 'place'));
    assert.equal(finalChecks(a), null);
    assert.equal(throughVerdict(a, null, s.through.place ?? null), null);
    browserAsked();
    assert.equal(await blockedThrough(a, null), null);
    assert.deepEqual(browserAsked(), [], 'a control at the point is not looked through');
  });
});

describe('a point beside what the agent describes (missedAtCapture)', () => {
  const scene = loadScene('grid-resort');
  const t = scene.targets as Record<string, { x: number; y: number }>;
  const del = t.delete as { x: number; y: number };

  test('on the Delete of TCK-7742 while expecting the one of TCK-7741: MISSED_TARGET, with where it was', () => {
    const a = attemptAt(scene, 'otherDelete', { req: { expect: { text: 'Delete', context: 'TCK-7741' } } });
    const r = missedAtCapture(a, { text: 'Delete', context: 'TCK-7741' });
    assert.equal(r?.verdict, 'MISSED_TARGET');
    const at = r?.expectedAt?.css as { x: number; y: number };
    assert.ok(Math.abs(at.x - del.x) < 1 && Math.abs(at.y - del.y) < 1, JSON.stringify(at));
    assert.match(r?.message ?? '', /CSS px below it/);
    assert.match(r?.message ?? '', /To click it: x \d+, y \d+, frame "f\d+"/);
  });

  test('on the Delete it describes: no miss', () => {
    const a = attemptAt(scene, 'delete');
    assert.equal(missedAtCapture(a, { text: 'Delete', context: 'TCK-7741' }), null);
    assert.equal(missedAtCapture(attemptAt(scene, 'cell'), { context: 'TCK-7741' }), null);
  });

  test('misses that all fit one scale (points read off an image shown at 0.8×): FRAME_MISMATCH on the third', () => {
    const misses = new MissLog();
    const verdicts: string[] = [];
    for (const [target, context] of [
      ['delete', 'TCK-7741'],
      ['otherDelete', 'TCK-7742'],
      ['cell', 'TCK-7741'],
    ] as const) {
      const p = t[target] as { x: number; y: number };
      const expect = { text: target === 'cell' ? context : 'Delete', context };
      const a = attemptAt(scene, target, { at: { x: p.x * 0.8, y: p.y * 0.8 }, misses, req: { expect } });
      verdicts.push(missedAtCapture(a, expect)?.verdict ?? 'none');
    }
    assert.deepEqual(verdicts, ['MISSED_TARGET', 'MISSED_TARGET', 'FRAME_MISMATCH']);
  });
});
