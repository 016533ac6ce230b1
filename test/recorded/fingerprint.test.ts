// The fingerprint comparison on recorded corpus pages, without a browser: what the frame says the point held
// against what the page's own kit read there after the page moved (re-sorted, new data in recycled rows, a
// relabelled component) or only lived (durations ticking). Both directions: a moved record differs and is
// named, a living one is set aside once it is seen ticking, and what names the record never is.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  describeDifferences,
  judge,
  partText,
  sameElement,
} from '../../src/browser/identity/compare-facts.js';
import type { ElementFacts } from '../../src/browser/identity/element-facts.js';
import { capturedAt, loadScene, look, sceneNames, step } from './scene.js';

/** The capture side of a target and the rules the pipeline judges it by (what tells its record apart). */
function captured(name: string, target: string) {
  const scene = loadScene(name);
  const c = capturedAt(scene, target);
  return { scene, was: c.facts, distinct: c.doc.kit.uniqueParts(c.index) };
}

const lookAt = (name: string, change: string, target: string): ElementFacts => {
  const f = look(step(loadScene(name), change), target);
  assert.ok(f, `${name} ${change}: something at ${target}`);
  return f;
};

describe('a still page: the record the frame showed is the record there', () => {
  for (const name of sceneNames()) {
    test(name, () => {
      const scene = loadScene(name);
      for (const target of Object.keys(scene.targets)) {
        const { was: then, distinct } = captured(name, target);
        const j = judge(then, lookAt(name, 'still', target), { distinct });
        // The look came a few ms after the capture: a duration may have ticked, and nothing else.
        for (const d of j.diffs) assert.ok(d.part && /^Running for/.test(d.part.was), `${name} ${target}`);
      }
    });
  }
});

describe('a moved page: another record at the point differs, and the difference names both', () => {
  for (const [name, change, target, was, now] of [
    ['grid-resort', 'resort', 'delete', 'TCK-7741', 'TCK-7883'],
    ['grid-resort', 'resort', 'cell', 'TCK-7741', 'TCK-7883'],
    ['grid-replace', 'replaceData', 'delete', 'TCK-7741', 'TCK-8741'],
    ['list-resort', 'resort', 'archive', 'TCK-7741', 'TCK-7752'],
    ['list-resort', 'resort', 'delete', 'TCK-7743', 'TCK-7751'],
    ['jobs-resort', 'resort', 'cancel', 'JOB-4103', 'JOB-4109'],
    ['frames-same', 'resortInner(same)', 'inner', 'TCK-7740', 'TCK-7741'],
  ] as const) {
    test(`${name}: ${change} puts ${now} where ${was} was under ${target}`, () => {
      const { was: then, distinct } = captured(name, target);
      const moved = lookAt(name, change, target);
      assert.equal(sameElement(then, moved), false);
      const j = judge(then, moved, { distinct });
      const record = j.diffs.find((d) => d.field === 'record');
      assert.ok(record, JSON.stringify(j.diffs));
      assert.deepEqual(j.maybeTicking, [], 'what names a record never ticks');
      const said = describeDifferences(j.diffs, then);
      assert.match(said, new RegExp(was));
      assert.match(said, new RegExp(now));
    });
  }

  test('a ticking duration set aside does not excuse another job in the row (Vue rows keyed by index)', () => {
    const { was: then, distinct } = captured('jobs-resort', 'cancel');
    const moved = lookAt('jobs-resort', 'resort', 'cancel');
    const duration = (then.recordParts ?? []).findIndex((p) => p.startsWith('t:Running for'));
    const j = judge(then, moved, { distinct, ticking: new Set([duration]) });
    assert.ok(j.diffs.some((d) => d.field === 'record' && d.part?.was === 'JOB-4103'));
  });

  test('Shoelace: the same row’s button relabelled in place is a different control', () => {
    const { was: then, distinct } = captured('components-relabel', 'open');
    const j = judge(then, lookAt('components-relabel', 'relabel', 'open'), { distinct });
    const text = j.diffs.find((d) => d.field === 'text');
    assert.deepEqual([text?.was, text?.now], ['Open', 'Reopen']);
  });

  test('a toast over the point: the element there now is another one (node, role and text)', () => {
    const { was: then } = captured('overlays-toast', 'export');
    const j = judge(then, lookAt('overlays-toast', 'showToast', 'export'));
    assert.deepEqual(
      ['node', 'role', 'text'].map((f) => j.diffs.some((d) => d.field === f)),
      [true, true, true],
    );
  });
});

describe('a living page: a duration that ticks is set aside once seen ticking; strict keeps it', () => {
  const { was: then, distinct } = captured('jobs-living', 'cancel');
  const duration = (then.recordParts ?? []).findIndex((p) => p.startsWith('t:Running for'));
  const later = lookAt('jobs-living', 'wait:600', 'cancel');
  const again = lookAt('jobs-living', 'wait:150', 'cancel');

  test('600 ms later only the duration differs, and it may be ticking', () => {
    assert.notEqual(
      partText(then.recordParts?.[duration] ?? ''),
      partText(later.recordParts?.[duration] ?? ''),
    );
    const j = judge(then, later, { distinct });
    assert.deepEqual(
      j.diffs.map((d) => d.field),
      ['record'],
    );
    assert.deepEqual(j.maybeTicking, [[duration, duration]]);
  });

  test('seen changing again in place: set aside, and named as ticking', () => {
    assert.notEqual(later.recordParts?.[duration], again.recordParts?.[duration], 'it ticked between looks');
    const j = judge(then, again, { distinct, ticking: new Set([duration]) });
    assert.deepEqual(j.diffs, []);
    assert.deepEqual(
      j.setAside.map((s) => [s.what, s.why, /^Running for/.test(s.was)]),
      [['text', 'ticking', true]],
    );
  });

  test('strict: any change of the record refuses, the ticking duration too', () => {
    const j = judge(then, again, { strict: true, distinct: null, ticking: new Set([duration]) });
    assert.ok(j.diffs.some((d) => d.field === 'record'));
  });
});
