import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { type WebSocket, WebSocketServer } from 'ws';
import { hostName, LOOPBACK, sameSecret } from '../plumbing/local-http.js';
import { type CdpMessage, SharedTabs, type TargetInfo } from './shared-tabs.js';

/** The unpacked extension in this package (load it at chrome://extensions, Developer mode, Load unpacked). */
export const EXTENSION_DIR = fileURLToPath(new URL('../../../../extension', import.meta.url));

/** Chrome names an extension after its public key: the manifest's `key` fixes the id of the unpacked one. */
export function extensionId(dir = EXTENSION_DIR): string {
  const manifest = JSON.parse(readFileSync(`${dir}/manifest.json`, 'utf8')) as { key: string };
  const hex = createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((h) => String.fromCharCode(97 + Number.parseInt(h, 16))).join('');
}

const secret = () => randomBytes(24).toString('base64url');

/** How long a tab the user shares in place of another may take to come (attach, read, announce). */
const NEXT_SHARE_MS = 3_000;
/** Why nothing is shared: before the first share, or what ended the last one. */
const NEVER_SHARED = 'no tab has been shared with this run of trueclick yet';

/**
 * The relay `trueclick serve --extension` runs on 127.0.0.1: the extension connects to it with this run's
 * token, and trueclick's own Playwright connects to it as to a browser (over a path as secret as the token).
 * Any other client, origin, host name or token is refused before a WebSocket opens.
 */
export class ExtensionRelay {
  readonly tabs: SharedTabs;
  private readonly token = secret();
  private readonly cdpPath = `/cdp/${secret()}`;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 256 * 1024 * 1024 });
  private link: WebSocket | null = null;
  private cdp: WebSocket | null = null;
  private readonly pending = new Map<
    number,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  private nextId = 1;
  private reason = NEVER_SHARED;
  /** How many times the shared tabs ran out (each ends trueclick's browser connection of that time). */
  private ends = 0;
  /** Until when a tab the user is sharing in place of the one unshared is awaited (Date.now() ms). */
  private nextShareBy = 0;
  readonly extensionId: string;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {
    this.extensionId = extensionId();
    this.tabs = new SharedTabs((cmd) => this.call(cmd));
  }

  /** Starts the relay on 127.0.0.1 (port 0: any free port). */
  static async start(port = 0): Promise<ExtensionRelay> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    const relay = new ExtensionRelay(server, typeof address === 'object' && address ? address.port : port);
    server.on('request', (req, res) => relay.page(req, res));
    server.on('upgrade', (req, socket, head) => relay.upgrade(req, socket, head));
    return relay;
  }

  /** The link a user opens in their browser to choose the tab to share (it leads to the extension's page). */
  get connectUrl(): string {
    return `http://127.0.0.1:${this.port}/connect?token=${this.token}`;
  }

  /** The extension's own connect page, with this run's relay address and token. */
  get extensionPage(): string {
    const u = new URL(`chrome-extension://${this.extensionId}/connect.html`);
    u.searchParams.set('relay', `ws://127.0.0.1:${this.port}/extension`);
    u.searchParams.set('token', this.token);
    return u.href;
  }

  /** Where trueclick's Playwright connects, as to a browser's CDP endpoint. */
  get cdpEndpoint(): string {
    return `ws://127.0.0.1:${this.port}${this.cdpPath}`;
  }

  /** Counts the connections ended: a handle made before the last end is gone, even while its close is in flight. */
  get generation(): number {
    return this.ends;
  }

  /** Why no tab is shared now (empty while one is). */
  get notShared(): string {
    return this.tabs.count > 0 ? '' : this.reason;
  }

  /** Returns once a tab is shared, or at once when none is on its way (the user swapping tabs). */
  async untilShared(): Promise<void> {
    while (this.tabs.count === 0 && Date.now() < this.nextShareBy)
      await new Promise((r) => setTimeout(r, 25));
  }

  close(): Promise<void> {
    this.link?.close(1000, 'trueclick stopped');
    this.cdp?.close(1000, 'trueclick stopped');
    this.wss.close();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private page(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const refusal = !LOOPBACK.has(hostName(req.headers.host))
      ? ([403, 'Host not allowed'] as const)
      : url.pathname !== '/connect'
        ? ([404, 'Not found'] as const)
        : !sameSecret(url.searchParams.get('token') ?? '', this.token)
          ? ([403, 'This link is not for the running trueclick: ask the agent for the current one.'] as const)
          : null;
    if (refusal) {
      res.writeHead(refusal[0], { 'content-type': 'text/plain; charset=utf-8' }).end(refusal[1]);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(connectPage(this.extensionPage));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = req.headers.origin;
    const token = url.searchParams.get('token') ?? '';
    let refusal = '';
    if (!LOOPBACK.has(hostName(req.headers.host))) refusal = '403 Forbidden';
    else if (url.pathname === '/extension') {
      if (origin !== `chrome-extension://${this.extensionId}`) refusal = '403 Forbidden';
      else if (!sameSecret(token, this.token)) refusal = '401 Unauthorized';
      else this.wss.handleUpgrade(req, socket, head, (ws) => this.adoptLink(ws));
    } else if (url.pathname === this.cdpPath && origin === undefined) {
      // trueclick's own Playwright: no browser page may reach it (a page always sends an Origin).
      if (this.cdp) refusal = '409 Conflict';
      else this.wss.handleUpgrade(req, socket, head, (ws) => this.adoptCdp(ws));
    } else refusal = '404 Not Found';
    if (refusal) socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\n\r\n`);
  }

  private adoptLink(ws: WebSocket): void {
    // A reloaded extension connects anew: the old link is dead either way.
    this.link?.close(1000, 'replaced');
    this.link = ws;
    ws.on('message', (data) => {
      let m: Record<string, unknown>;
      try {
        m = JSON.parse(String(data));
      } catch {
        return;
      }
      this.fromExtension(m);
    });
    ws.on('close', () => {
      if (this.link !== ws) return;
      this.link = null;
      this.nextShareBy = 0;
      for (const p of this.pending.values()) p.reject(new Error('the trueclick extension disconnected'));
      this.pending.clear();
      if (this.tabs.count > 0)
        this.ended(
          'the trueclick extension disconnected (it was reloaded, turned off or removed, or the browser closed)',
        );
      this.tabs.clear();
    });
  }

  private fromExtension(m: Record<string, unknown>): void {
    if (typeof m.id === 'number') {
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error !== undefined) p?.reject(new Error(String(m.error)));
      else p?.resolve((m.result ?? {}) as Record<string, unknown>);
      return;
    }
    switch (m.event) {
      case 'hello':
        this.tabs.userAgent = String(m.userAgent ?? '');
        return;
      case 'shared':
        this.nextShareBy = 0;
        this.tabs.onShared(Number(m.tabId), m.targetInfo as TargetInfo);
        return;
      // The tab the user chose in place of the old one could not be shared: none is coming.
      case 'share-failed':
        this.nextShareBy = 0;
        return;
      case 'unshared':
        if (m.next === true) this.nextShareBy = Date.now() + NEXT_SHARE_MS;
        if (this.tabs.onUnshared(Number(m.tabId)) && this.tabs.count === 0)
          this.ended(String(m.reason ?? 'the tab is no longer shared'));
        return;
      case 'cdp':
        this.tabs.onEvent(
          Number(m.tabId),
          m.sessionId === undefined || m.sessionId === null ? undefined : String(m.sessionId),
          String(m.method),
          (m.params ?? {}) as Record<string, unknown>,
        );
        return;
    }
  }

  /** The last shared tab went: trueclick's browser connection ends, so the next call hears why. */
  private ended(reason: string): void {
    this.ends++;
    this.reason = reason;
    this.cdp?.close(1000, reason.slice(0, 120));
  }

  private call(cmd: Record<string, unknown>): Promise<Record<string, unknown>> {
    const link = this.link;
    if (!link) return Promise.reject(new Error('the trueclick extension is not connected'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      link.send(JSON.stringify({ id, ...cmd }));
    });
  }

  private adoptCdp(ws: WebSocket): void {
    this.cdp = ws;
    const send = (m: CdpMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
    };
    this.tabs.open(send);
    ws.on('message', async (data) => {
      let m: CdpMessage;
      try {
        m = JSON.parse(String(data));
      } catch {
        return;
      }
      const reply = { id: m.id, ...(m.sessionId ? { sessionId: m.sessionId } : {}) };
      try {
        send({ ...reply, result: await this.tabs.command(m) });
      } catch (err) {
        send({ ...reply, error: { message: (err as Error).message } });
      }
    });
    ws.on('close', () => {
      if (this.cdp !== ws) return;
      this.cdp = null;
      this.tabs.closed();
    });
  }
}

/** The page behind the link: it sends the browser on to the extension's connect page, or says what to install. */
function connectPage(target: string): string {
  const dir = EXTENSION_DIR.replace(/[<>&"]/g, '');
  const href = target.replace(/"/g, '&quot;');
  return `<!doctype html><meta charset="utf-8"><title>Share a tab with trueclick</title>
<style>body{font:15px/1.45 system-ui,sans-serif;max-width:44rem;margin:2.5rem auto;padding:0 1.25rem}code{background:#f0f0f1;padding:0 .25rem}</style>
<h1>Share a tab with trueclick</h1>
<p>Opening the trueclick extension… <a id="go" href="${href}">Continue</a></p>
<p>If nothing happens, the extension is not installed in this browser: open <code>chrome://extensions</code>, turn on
Developer mode, choose <b>Load unpacked</b> and pick the folder <code>${dir}</code>, then open this link again.</p>
<script>location.replace(document.getElementById('go').href)</script>`;
}
