import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { churnWindows } from '../../src/browser/plumbing/watch.js';
import { measureChurn } from '../../src/cli/churn.js';

let srv: FixtureServer;
before(async () => {
  srv = await startFixtureServer();
});
after(async () => {
  await srv?.close();
});

describe('trueclick churn', () => {
  test('counts whole 1-second windows with at least one mutation', () => {
    assert.deepEqual(churnWindows(100, 3150, [150, 170, 2200, 3120]), { windows: 3, changed: 2 });
    assert.deepEqual(churnWindows(0, 999, [10]), { windows: 0, changed: 0 });
  });

  test('a list that re-sorts all the time collides in every window; a still page in none', async () => {
    const busy = await measureChurn(srv.url('/race', { every: 50 }), { seconds: 2 });
    assert.equal(busy.windows, 2);
    assert.equal(busy.changed, 2);
    const still = await measureChurn(srv.url('/blank'), { seconds: 2 });
    assert.equal(still.changed, 0);
  });

  test('--selector watches one part of the page, and says when it matches nothing', async () => {
    const r = await measureChurn(srv.url('/tickets', { resort: 1500 }), { seconds: 3, selector: '#queue' });
    assert.equal(r.windows, 3);
    assert.equal(r.changed, 1, 'one re-sort in three seconds');
    await assert.rejects(
      measureChurn(srv.url('/blank'), { seconds: 1, selector: '#nothing' }),
      /No element matches/,
    );
  });
});
