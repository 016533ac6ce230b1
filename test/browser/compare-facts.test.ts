// The one compare of what the point held at capture with what it holds now, without a browser: which
// changes of a record are a move and which are the page living.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { judge } from '../../src/browser/identity/compare-facts.js';
import type { ElementFacts } from '../../src/browser/identity/element-facts.js';

const link = (parts: string[], over: Partial<ElementFacts> = {}): ElementFacts => ({
  backendNodeId: 7,
  tag: 'A',
  attrs: { href: '/rw/act?do=cancel&id=JOB-4103' },
  text: 'Cancel',
  role: 'link',
  recordTag: 'DIV',
  recordParts: parts,
  contextText: parts.join(' '),
  ...over,
});

const job = (id: string, duration: string) => [
  `t:${id}`,
  't:integration · chromium',
  `t:${duration}`,
  'h:/rw/act?do=cancel',
];

describe('judge', () => {
  test('a still record: no difference', () => {
    const then = link(job('JOB-4103', 'Running for 1m 7.3s'));
    assert.deepEqual(judge(then, link(job('JOB-4103', 'Running for 1m 7.3s'))).diffs, []);
  });

  test('a text that may tick: refused until it is known to tick, then set aside and named', () => {
    const then = link(job('JOB-4103', 'Running for 1m 7.3s'));
    const now = link(job('JOB-4103', 'Running for 1m 8.0s'));
    const first = judge(then, now, { distinct: [true, true, false, false] });
    assert.equal(first.diffs.length, 1);
    assert.deepEqual(first.maybeTicking, [[2, 2]]);
    const again = judge(then, now, { distinct: [true, true, false, false], ticking: new Set([2]) });
    assert.deepEqual(again.diffs, []);
    assert.deepEqual(again.setAside, [
      { what: 'text', was: 'Running for 1m 7.3s', now: 'Running for 1m 8.0s', why: 'ticking' },
    ]);
  });

  test('what tells the record apart never ticks: another id with a ticking duration is a move', () => {
    const then = link(job('JOB-4103', 'Running for 1m 7.3s'));
    const now = link(job('JOB-4108', 'Running for 1m 51.2s'));
    // Two jobs of one name: the name held, but it does not name the record; the id did, and it changed.
    const j = judge(then, now, { distinct: [true, false, true, false], ticking: new Set([2]) });
    assert.equal(j.diffs[0]?.field, 'record');
    assert.deepEqual(j.maybeTicking, []);
    const other = link(['t:JOB-4108', 't:docs preview', 't:Running for 1m 51.2s', 'h:/rw/act?do=cancel']);
    assert.deepEqual(judge(then, other, { distinct: [true, true, true, false] }).maybeTicking, []);
  });

  test('a duration that was the only thing telling rows apart is not set aside', () => {
    const then = link(job('JOB-4103', 'Running for 1m 7.3s'));
    const now = link(job('JOB-4103', 'Running for 1m 8.0s'));
    const j = judge(then, now, { distinct: [false, false, true, false] });
    assert.deepEqual(j.maybeTicking, []);
    assert.equal(j.diffs[0]?.field, 'record');
  });

  test('declared live content (~) is set aside at once; strict refuses it', () => {
    const then = link(['t:JOB-4104', '~t:Running for 1m 14.6s', 'h:/x']);
    const now = link(['t:JOB-4104', '~t:Running for 1m 15.3s', 'h:/x']);
    const j = judge(then, now, { distinct: [true, false, false] });
    assert.deepEqual(j.diffs, []);
    assert.equal(j.setAside[0]?.why, 'live');
    assert.equal(judge(then, now, { strict: true }).diffs[0]?.field, 'record');
  });

  test('form values tell rows apart: the same inputs holding another id are another record', () => {
    const then = link(['v:TCK-7741', 'v:Export to CSV cuts long names'], { tag: 'BUTTON', attrs: {} });
    const now = link(['v:TCK-7736', 'v:Printer on floor 3 jams on duplex'], { tag: 'BUTTON', attrs: {} });
    const j = judge(then, now, { distinct: [true, true] });
    assert.equal(j.diffs[0]?.field, 'record');
    assert.deepEqual(j.diffs[0]?.part, { was: 'TCK-7741', now: 'TCK-7736' });
  });

  test('an element drawn anew for the same record is the same element; in another record it is not', () => {
    const then = link(job('JOB-4103', 'Running for 1m 7.3s'));
    const redrawn = link(job('JOB-4103', 'Running for 1m 7.3s'), { backendNodeId: 99 });
    const j = judge(then, redrawn, { distinct: [true, true, false, false] });
    assert.deepEqual(j.diffs, []);
    assert.equal(j.setAside[0]?.why, 're-rendered');
    const elsewhere = link(job('JOB-4108', 'Running for 1m 7.3s'), { backendNodeId: 99 });
    assert.deepEqual(
      judge(then, elsewhere, { distinct: [true, true, false, false] }).diffs.map((d) => d.field),
      ['node', 'record'],
    );
  });

  test('a re-drawn element with nothing to tell it apart (no record, no ids) stays another element', () => {
    const bare = (id: number): ElementFacts => ({
      backendNodeId: id,
      tag: 'BUTTON',
      attrs: {},
      text: 'OK',
      role: 'button',
    });
    assert.deepEqual(
      judge(bare(1), bare(2)).diffs.map((d) => d.field),
      ['node'],
    );
  });
});
