import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { PageDriver } from '../../src/browser/plumbing/page-driver.js';
import type { TrueclickSession } from '../../src/index.js';
import { librarySession } from '../helpers/library.js';

// What a guarded click sends, counted instead of timed: every CDP round trip is paid on every click of every
// agent, and is the window in which the page can move (issue 32). Truth about the click comes from the page.

const ctx = librarySession({ deviceScaleFactor: 2 });

/**
 * The CDP commands one call sends, in order (a Runtime.evaluate named by the guard function it calls), and
 * its round trips: a command sent while none is awaited starts one. A handle's release is sent and not
 * awaited by design; it is left out.
 */
async function sent(
  driver: PageDriver,
  work: () => Promise<unknown>,
): Promise<{ names: string[]; rounds: string[][] }> {
  const names: string[] = [];
  const rounds: string[][] = [];
  let awaited = 0;
  const send = driver.send.bind(driver);
  driver.send = ((method: string, params: { expression?: string }, budget?: number) => {
    const fn = /__trueclick\.(\w+)/.exec(params?.expression ?? '')?.[1];
    const name = method === 'Runtime.evaluate' && fn ? `eval:${fn}` : method;
    names.push(name);
    const reply = send(method as never, params as never, budget);
    if (method === 'Runtime.releaseObject') return reply;
    if (awaited === 0) rounds.push([]);
    rounds.at(-1)?.push(name);
    awaited++;
    return reply.finally(() => awaited--);
  }) as typeof driver.send;
  try {
    await work();
  } finally {
    driver.send = send;
  }
  return { names, rounds };
}

async function clickCss(session: TrueclickSession, css: { x: number; y: number }) {
  const shot = await session.screenshot();
  const { image, css: size } = shot.frame.geometry;
  return (p = css) =>
    session.click({
      frame: shot.frame.id,
      x: (p.x * image.width) / size.width,
      y: (p.y * image.height) / size.height,
    });
}

// A button inside a closed shadow root: the page's own hit-test stops at the host, CDP's names the button.
const CLOSED = `(() => {
  const host = document.createElement('x-closed');
  host.style.cssText = 'position:fixed;left:100px;top:100px;width:200px;height:60px;display:block';
  const root = host.attachShadow({ mode: 'closed' });
  root.innerHTML = '<button id="inner" style="width:200px;height:60px">Archive</button>';
  const b = root.getElementById('inner');
  window.__closedClicks = [];
  b.addEventListener('click', () => window.__closedClicks.push(b.textContent));
  window.__relabel = (t) => { b.textContent = t; };
  document.body.append(host);
})()`;

describe('round trips of a guarded click', () => {
  test('on a still page: one look, the move with the armed look, then press, release and disarm together', async () => {
    await ctx.session.navigate(ctx.srv.url('/blank', { run: 'rt-blank' }));
    const click = await clickCss(ctx.session, { x: 640, y: 400 });
    const driver = await ctx.session.driver();
    const { rounds } = await sent(driver, async () => {
      const r = await click();
      assert.equal(r.verdict, 'OK', r.message);
    });
    assert.deepEqual(rounds, [
      ['DOM.getNodeForLocation', 'eval:lookAt'],
      ['Input.dispatchMouseEvent', 'eval:rearmAfterMove'],
      ['Input.dispatchMouseEvent', 'Input.dispatchMouseEvent', 'eval:disarmAfter'],
    ]);
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(ctx.srv.hits({ run: 'rt-blank', type: 'click' }).length, 1);
  });

  test('a closed shadow root: the node CDP named is read the full way; clicked, and refused once relabelled', async () => {
    await ctx.session.navigate(ctx.srv.url('/blank', { run: 'rt-closed' }));
    const driver = await ctx.session.driver();
    await driver.page.evaluate(CLOSED);
    const click = await clickCss(ctx.session, { x: 200, y: 130 });
    const { names } = await sent(driver, async () => {
      const r = await click();
      assert.equal(r.verdict, 'OK', r.message);
    });
    const before = names.slice(0, names.indexOf('Input.dispatchMouseEvent'));
    assert.ok(before.includes('DOM.resolveNode'), `the first look took the full way: ${names.join(' ')}`);
    assert.deepEqual(await driver.page.evaluate('window.__closedClicks'), ['Archive']);

    const again = await clickCss(ctx.session, { x: 200, y: 130 });
    await driver.page.evaluate('window.__relabel("Delete")');
    const r = await again();
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.deepEqual(
      await driver.page.evaluate('window.__closedClicks'),
      ['Archive'],
      'Delete was not clicked',
    );
  });
});
