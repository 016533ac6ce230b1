import { after, before } from 'node:test';
import { type FixtureServer, startFixtureServer } from '../../fixtures/server.js';
import { type SessionOptions, TrueclickSession } from '../../src/index.js';

/** A test file's fixture server and library session: made before its tests, closed after them. */
export function librarySession(opts: SessionOptions): { srv: FixtureServer; session: TrueclickSession } {
  const ctx = {} as { srv: FixtureServer; session: TrueclickSession };
  before(async () => {
    ctx.srv = await startFixtureServer();
    ctx.session = new TrueclickSession(opts);
  });
  after(async () => {
    await ctx.session?.close();
    await ctx.srv?.close();
  });
  return ctx;
}
