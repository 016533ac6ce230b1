import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type EraClient, instanceOf, openEraClient } from '../../bench/era-client.js';
import { type Fleet, haproxyMissing, type ProxyLine, startFleet } from '../../bench/fleet.js';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { structured, text } from '../helpers/mcp-client.js';

// Three servers behind HAProxy (examples/fleet/haproxy.cfg), both MCP eras at once. Truth: the pages' own
// records (every click on its own session's page) and HAProxy's log (every call that names a session went
// to the instance that name starts with). One server is killed: its sessions are told they are gone (a
// 2026-07-28 handle: SESSION_GONE saying to navigate without `session`; a 2025-11-25 session: the 404 of
// an unknown session id), the others carry on; started again, it takes a new session.

const VICTIM = 'tc2';
/** #approve's centre on /approve, CSS px (fixtures/server.ts). */
const APPROVE = { x: 1102, y: 636 };

let pages: FixtureServer;
let fleet: Fleet;
before(async () => {
  const missing = haproxyMissing();
  if (missing) throw new Error(missing);
  pages = await startFixtureServer();
  fleet = await startFleet();
});
after(async () => {
  await fleet?.stop();
  await pages?.close();
});

interface Agent {
  client: EraClient;
  run: string;
  instance: string;
  ok: number;
}

async function openAgent(era: EraClient['era'], run: string): Promise<Agent> {
  const client = await openEraClient(fleet.endpoint, era);
  const nav = await client.call('browser_navigate', { url: pages.url('/approve', { run }) });
  assert.ok(!nav.isError, text(nav));
  const instance = instanceOf(client.routeKey, fleet.names);
  assert.ok(instance, `${era}: ${client.routeKey} names one of ${fleet.names.join(', ')}`);
  return { client, run, instance, ok: 0 };
}

/** A screenshot, then a guarded click on Approve read off it. */
async function cycle(a: Agent): Promise<void> {
  const shot = await a.client.call('browser_screenshot');
  assert.ok(!shot.isError, text(shot));
  const f = structured<{
    frame: { id: string; url?: string; image: { width: number }; css: { width: number } };
  }>(shot).frame;
  assert.match(f.url ?? '', new RegExp(`run=${a.run}$`), 'the frame shows this session’s own page');
  const k = f.image.width / f.css.width;
  const click = await a.client.call('browser_click', { frame: f.id, x: APPROVE.x * k, y: APPROVE.y * k });
  assert.equal(structured<{ verdict: string }>(click).verdict, 'OK', text(click));
  a.ok++;
}

/** Waits until each page recorded as many clicks as its session was told OK, and no more. */
async function assertOwnClicks(agents: Agent[]): Promise<void> {
  for (const a of agents) await pages.waitForHits(a.ok, { run: a.run, type: 'click' });
  await new Promise((r) => setTimeout(r, 300));
  for (const a of agents)
    assert.equal(pages.hits({ run: a.run, type: 'click' }).length, a.ok, `page of ${a.run}`);
}

/** Log lines of calls that named a session, whose server is not the instance the name starts with. */
const misrouted = (lines: ProxyLine[]) =>
  lines.filter((l) => {
    const named = instanceOf(l.handle ?? l.sessionId, fleet.names);
    return named !== undefined && l.server !== named;
  });

describe('a fleet: three servers behind HAProxy, both eras', () => {
  test('each call reaches the instance its session names; a killed server’s sessions are told, the rest carry on', async () => {
    const agents: Agent[] = [];
    const held = (name: string, era: string) =>
      agents.some((a) => a.instance === name && a.client.era === era);
    // Round robin decides where a new session lands: open sessions, eras alternating, until every server
    // holds one and the one to be killed holds one of each era.
    for (let i = 0; i < 12; i++) {
      const covered =
        fleet.names.every((n) => agents.some((a) => a.instance === n)) &&
        held(VICTIM, '2025-11-25') &&
        held(VICTIM, '2026-07-28');
      if (covered && agents.length >= 6) break;
      agents.push(await openAgent(i % 2 ? '2025-11-25' : '2026-07-28', `fleet-${i}`));
    }
    assert.ok(held(VICTIM, '2025-11-25') && held(VICTIM, '2026-07-28'), 'the victim holds both eras');

    await Promise.all(
      agents.map(async (a) => {
        for (let i = 0; i < 3; i++) await cycle(a);
      }),
    );
    await assertOwnClicks(agents);
    const named = fleet.proxyLog().filter((l) => l.handle || l.sessionId);
    assert.ok(named.length >= agents.length * 6, `${named.length} calls named a session`);
    assert.deepEqual(misrouted(named), []);

    await fleet.kill(VICTIM);
    const mark = fleet.proxyLog().length;
    const gone = agents.filter((a) => a.instance === VICTIM);
    const alive = agents.filter((a) => a.instance !== VICTIM);
    for (const a of gone) {
      if (a.client.era === '2026-07-28') {
        const r = await a.client.call('browser_screenshot');
        assert.ok(r.isError);
        const s = structured<{ verdict: string; message: string }>(r);
        assert.equal(s.verdict, 'SESSION_GONE', s.message);
        assert.match(s.message, new RegExp(`session lives on server ${VICTIM}.*gone`));
        assert.match(s.message, /Call browser_navigate with a url and no session to start a new one/);
      } else {
        const err = await a.client.call('browser_screenshot').then(
          (r) => new Error(`answered: ${text(r)}`),
          (e: Error) => e,
        );
        assert.match(err.message, /404|not open/, err.message);
        assert.match(err.message, /lived on a server that is gone/, err.message);
      }
    }
    await Promise.all(alive.map((a) => cycle(a)));
    await assertOwnClicks(alive);
    // What the dead server's sessions sent went elsewhere (and was refused there); the rest where named.
    assert.deepEqual(
      misrouted(fleet.proxyLog().slice(mark)).filter(
        (l) => instanceOf(l.handle ?? l.sessionId, fleet.names) !== VICTIM,
      ),
      [],
    );

    await fleet.restart(VICTIM);
    // A new session lands on the restarted server (round robin reaches it within a few) and works there;
    // a gone 2026 session starts over by navigating without its old handle, as its answer said.
    let fresh: Agent | undefined;
    for (let i = 0; i < 6 && !fresh; i++) {
      const a = await openAgent(i % 2 ? '2025-11-25' : '2026-07-28', `fleet-new-${i}`);
      if (a.instance === VICTIM) fresh = a;
      else await a.client.end();
    }
    assert.ok(fresh, `a new session landed on the restarted ${VICTIM}`);
    await cycle(fresh);
    const again = gone.find((a) => a.client.era === '2026-07-28') as Agent;
    again.client.forget();
    again.run = `${again.run}-again`;
    again.ok = 0;
    const nav = await again.client.call('browser_navigate', {
      url: pages.url('/approve', { run: again.run }),
    });
    assert.ok(!nav.isError, text(nav));
    await cycle(again);
    await assertOwnClicks([fresh, again]);
    assert.deepEqual(
      misrouted(fleet.proxyLog().slice(mark)).filter((l) => l.handle === fresh?.client.handle),
      [],
    );

    await Promise.all([...agents, fresh].map((a) => a.client.end()));
  });
});
