/**
 * The fixture pages for the speed sections, served without the fixture's hit beacon.
 *
 * Every fixture page loads /hit.js, which POSTs each pointerdown/click to /__hit with fetch(keepalive).
 * Playwright MCP waits after a click for the requests it started (500 ms settle, then up to 5 s for the
 * responses, which a keepalive fetch never reports as finished, then 500 ms again): on the fixture pages its
 * click takes about 6 s, an artifact of the test beacon, not of the peer. So the timed sections load the same
 * pages (same HTML, CSS and page scripts) from this server, whose hit.js records into window.__hits only.
 * The race and stale sections, which count where clicks landed, use the real fixture server.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pagesDir, ROUTES } from '../fixtures/server.js';

export interface QuietPages {
  origin: string;
  url(path: string, query?: Record<string, string | number>): string;
  close(): Promise<void>;
}

const POST = 'function post(batch) {';

/** hit.js with its network beacon turned off (hits still go to window.__hits). */
export function quietHitJs(source: string): string {
  if (!source.includes(POST))
    throw new Error(`fixtures/pages/hit.js has no "${POST}": update bench/pages.ts`);
  return source.replace(POST, `${POST}\n    return Promise.resolve(batch.length); // bench: no beacon`);
}

export async function startQuietPages(): Promise<QuietPages> {
  const dir = pagesDir();
  const hitJs = quietHitJs(await readFile(join(dir, 'hit.js'), 'utf8'));
  const types: Record<string, string> = {
    js: 'text/javascript; charset=utf-8',
    css: 'text/css; charset=utf-8',
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://quiet.invalid').pathname;
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const route = ROUTES[path];
    const asset = /^\/([A-Za-z0-9_-]+)\.(js|css)$/.exec(path);
    if (path === '/hit.js') return send(200, types.js as string, hitJs);
    const file = route ? route.file : asset ? `${asset[1]}.${asset[2]}` : null;
    if (!file) return send(404, 'text/plain', `no page at ${path}`);
    readFile(join(dir, file)).then(
      (body) => send(200, route ? 'text/html; charset=utf-8' : (types[asset?.[2] ?? ''] as string), body),
      () => send(404, 'text/plain', `no page at ${path}`),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url(path, query) {
      const u = new URL(path, origin);
      for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, String(v));
      return u.href;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
