// The record finder on recorded corpus pages, without a browser: which element a frame says the point held,
// the record (row, card, item) around it and the parts that tell that record apart, read by the identity
// kit over the recorded DOM snapshot. Where each target really was comes from the page (Playwright locators
// at recording time); what the live kit read there comes from the page too.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findExpected } from '../../src/actions/check/expect.js';
import type { ElementFacts } from '../../src/browser/identity/element-facts.js';
import { capturedAt, indexOf, loadScene, type Scene, sceneNames, step } from './scene.js';

/** What both sides of the kit must agree on; a ticking duration's digits aside. */
const sameness = (f: ElementFacts) => ({
  backendNodeId: f.backendNodeId,
  frame: f.frame,
  tag: f.tag,
  role: f.role,
  text: f.text,
  attrs: f.attrs,
  recordTag: f.recordTag,
  recordParts: f.recordParts?.map((p) => (/^t:Running for /.test(p) ? 't:Running for …' : p)),
  blocked: f.blocked,
});

const recordOf = (scene: Scene, target: string) => {
  const c = capturedAt(scene, target);
  const r = c.doc.kit.record(c.index);
  return { c, r, parts: c.facts.recordParts ?? [], unique: c.doc.kit.uniqueParts(c.index) ?? [] };
};

/** The parts that alone name the record (no sibling record holds the same there). */
const naming = (parts: string[], unique: boolean[]) => parts.filter((_, i) => unique[i]);

describe('the frame (recorded snapshot) and the live kit name the same element and record at every target', () => {
  for (const name of sceneNames()) {
    test(name, () => {
      const scene = loadScene(name);
      const still = step(scene, 'still');
      for (const target of Object.keys(scene.targets)) {
        const then = capturedAt(scene, target).facts;
        const now = still.looks[target];
        assert.ok(now, `${name} ${target}: the live kit found an element`);
        assert.deepEqual(sameness(then), sameness(now as ElementFacts), `${name} ${target}`);
      }
    });
  }
});

describe('the record around the point', () => {
  test('AG Grid: the Delete link and the id cell of TCK-7741 belong to one recycled row div; its id names it', () => {
    const scene = loadScene('grid-resort');
    const del = recordOf(scene, 'delete');
    const cell = recordOf(scene, 'cell');
    assert.equal(del.r?.tag, 'DIV');
    assert.equal(del.r?.node, cell.r?.node, 'one row around both');
    assert.match(del.c.doc.attrs(del.r?.node as number).class ?? '', /\bag-row\b/);
    assert.match(del.r?.text ?? '', /^TCK-7741 Export to CSV cuts long names/);
    assert.ok(naming(del.parts, del.unique).includes('t:TCK-7741'));
    assert.ok(!naming(del.parts, del.unique).includes('t:Delete'), 'every row has a Delete');
    const other = recordOf(scene, 'otherDelete');
    assert.notEqual(other.r?.node, del.r?.node);
    assert.ok(other.parts.includes('t:TCK-7742'));
  });

  test('React list: div rows (no table), one per ticket; the title span and the form button find theirs', () => {
    const scene = loadScene('list-resort');
    const rows = ['archive', 'title', 'delete'].map((t) => recordOf(scene, t));
    assert.deepEqual(
      rows.map(({ r, parts }) => [r?.tag, parts[0]]),
      [
        ['DIV', 't:TCK-7741'],
        ['DIV', 't:TCK-7744'],
        ['DIV', 't:TCK-7743'],
      ],
    );
    assert.equal(new Set(rows.map(({ r }) => r?.node)).size, 3);
    for (const { c, r } of rows) assert.match(c.doc.attrs(r?.node as number).class ?? '', /ticket-row/);
  });

  test('Shoelace: a point on an sl-button’s shadow content stands for its host, in the row #row-TCK-7741', () => {
    const scene = loadScene('components-relabel');
    const { c, parts, unique } = recordOf(scene, 'open');
    assert.equal(c.facts.tag, 'SL-BUTTON');
    assert.equal(c.facts.text, 'Open');
    assert.equal(parts[0], 'a:id=row-TCK-7741');
    assert.ok(naming(parts, unique).includes('t:TCK-7741'));
    const box = recordOf(scene, 'check');
    assert.equal(box.c.facts.tag, 'SL-CHECKBOX');
    assert.equal(box.parts[0], 'a:id=row-TCK-7738');
  });

  test('Lit (everything in one shadow root) and Vue: the person card and the job row', () => {
    const people = recordOf(loadScene('people-hover'), 'follow');
    assert.equal(people.c.facts.text, 'Following');
    assert.ok(naming(people.parts, people.unique).includes('t:alan'));
    const jobs = recordOf(loadScene('jobs-living'), 'cancel');
    assert.equal(jobs.parts[0], 't:JOB-4103');
    const duration = jobs.parts.findIndex((p) => p.startsWith('t:Running for'));
    assert.ok(duration > 0 && jobs.unique[duration], 'the duration differs from row to row');
  });

  test('a row inside a same-origin iframe: found through the frame, and named with it', () => {
    const { c, parts } = recordOf(loadScene('frames-same'), 'inner');
    assert.ok(c.facts.frame, 'the element names its frame');
    assert.equal(parts[0], 'a:id=row-TCK-7740');
    const top = recordOf(loadScene('frames-same'), 'top');
    assert.equal(top.c.facts.frame, undefined, 'the page’s own link has no frame');
    assert.equal(top.c.facts.text, 'Delete TCK-7736');
  });

  test('a control that repeats nowhere around it has no record: Place order, Export', () => {
    for (const [name, target] of [
      ['checkout-soldout', 'place'],
      ['overlays-toast', 'export'],
    ] as const) {
      const { r, c } = recordOf(loadScene(name), target);
      assert.equal(r, null, `${name} ${target}`);
      assert.equal(c.facts.recordParts, undefined);
    }
  });
});

describe('the element an expect describes, found in the frame', () => {
  const view = (scene: Scene) => ({ ...scene.frame.geometry.scroll, ...scene.frame.geometry.css });
  const holds = (b: { x: number; y: number; width: number; height: number }, p: { x: number; y: number }) =>
    p.x >= b.x && p.y >= b.y && p.x < b.x + b.width && p.y < b.y + b.height;

  for (const [name, target, expect] of [
    ['grid-resort', 'delete', { text: 'Delete', context: 'TCK-7741' }],
    ['grid-resort', 'otherDelete', { text: 'Delete', context: 'TCK-7742' }],
    ['list-resort', 'delete', { text: 'Delete', context: 'TCK-7743' }],
    ['components-relabel', 'open', { text: 'Open', context: 'TCK-7741' }],
    ['jobs-living', 'cancel5', { role: 'link', name: 'Cancel', context: 'JOB-4105' }],
    ['people-hover', 'follow', { text: 'Following', context: 'alan' }],
    ['frames-same', 'inner', { text: 'Delete', context: 'TCK-7740' }],
  ] as const) {
    test(`${name}: ${JSON.stringify(expect)} is the element at ${target}`, () => {
      const scene = loadScene(name);
      const found = findExpected(indexOf(scene), expect, view(scene));
      const t = scene.targets[target] as { x: number; y: number };
      const s = scene.frame.geometry.scroll;
      assert.ok(found[0], 'found');
      assert.ok(holds(found[0].bounds, { x: t.x + s.x, y: t.y + s.y }), JSON.stringify(found[0].bounds));
    });
  }
});
