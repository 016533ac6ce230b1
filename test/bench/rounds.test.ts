/**
 * The bench's interleaving (bench/rounds.ts): every op once per round, in a rotating order, and an op with
 * `rounds` (a peer under --quick) measured in only its first rounds and then left out.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interleaved, peerRounds, QUICK_PEER_ROUNDS } from '../../bench/rounds.js';

test('an op with rounds is called in the warm-up and its first measured rounds only', async () => {
  const calls: string[] = [];
  const op = (key: string, extra = {}) => ({
    key,
    run: async () => {
      calls.push(key);
      return key;
    },
    ...extra,
  });
  const t = await interleaved([op('ours'), op('peer', { rounds: 2 })], 1, 5);
  assert.equal(calls.filter((k) => k === 'ours').length, 6);
  assert.equal(calls.filter((k) => k === 'peer').length, 3);
  assert.equal(t.get('ours')?.ms.length, 5);
  assert.equal(t.get('peer')?.ms.length, 2);
  assert.equal(t.get('peer')?.summary.n, 2);
  // The order still rotates: the peer goes first in the second round.
  assert.deepEqual(calls.slice(0, 4), ['ours', 'peer', 'peer', 'ours']);
});

test('peerRounds gives the peers QUICK_PEER_ROUNDS under --quick and every round otherwise', () => {
  assert.deepEqual(peerRounds(true), { rounds: QUICK_PEER_ROUNDS });
  assert.deepEqual(peerRounds(false), {});
});
