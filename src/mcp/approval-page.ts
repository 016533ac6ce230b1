import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApprovalRequest } from '../actions/approval/request.js';
import { ageOf } from '../actions/approval/request.js';
import { hostName, LOOPBACK, sameSecret } from '../browser/plumbing/local-http.js';
import type { UrlPolicy } from '../browser/plumbing/url-policy.js';
import { approvalPageHtml, closedPageHtml, type PageDecision } from './approval-html.js';

// The local approval page (`serve --approve`), for a person whose client cannot show a form (URL-mode
// elicitation, or no elicitation at all): the frame's crop around the point then, the same region now, and
// Approve / Deny. One page per pending press, behind a one-use token; served on 127.0.0.1 only, and refused
// to the browser trueclick drives (reservedBy), so the agent cannot approve its own press.

/** Where the pages live: a path no site of the web uses, refused to the driven browser on any origin. */
export const APPROVE_PATH = '/trueclick/approve/';

/** One press waiting for a person. */
export interface PendingApproval {
  /** Names the press (session, tool, frame, point, control): a retry of the same call finds it. */
  readonly key: string;
  /** Names it in a requestState, which the client can read: not the link's secret. */
  readonly id: string;
  /** Secret part of the link. */
  readonly token: string;
  readonly request: ApprovalRequest;
  readonly askedAt: number;
  /** The same region as the page shows it now (PNG), for the person to compare. */
  readonly now: () => Promise<Buffer | undefined>;
  decision?: PageDecision;
  /** The answer was handed to a call: the token presses at most once. */
  used?: boolean;
  /** Nobody is asked any more (it expired, or a new question replaced it). */
  closed?: string;
  expiresAt: number;
  readonly waiters: Set<(d: PageDecision) => void>;
}

export class ApprovalPage {
  private readonly byToken = new Map<string, PendingApproval>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    /** How long a question stays open after it was last asked or waited on, ms. */
    readonly openMs: number,
  ) {}

  /** Starts the page server on 127.0.0.1 (port 0: any free port). */
  static async start(port: number, openMs: number): Promise<ApprovalPage> {
    let page: ApprovalPage | undefined;
    const server = createServer((req, res) => {
      void page?.handle(req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`trueclick approval page: ${err.message}`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    server.unref();
    page = new ApprovalPage(server, (server.address() as AddressInfo).port, openMs);
    return page;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The URL policy with this page refused to the driven browser, whatever host name reaches it. */
  reservedBy(policy: UrlPolicy): UrlPolicy {
    return {
      ...policy,
      reserved: {
        origins: [this.origin, `http://localhost:${this.port}`, `http://[::1]:${this.port}`],
        pathPrefix: APPROVE_PATH,
        why: "it is trueclick's approval page, which only the person answers, from a browser trueclick does not drive",
      },
    };
  }

  urlOf(p: PendingApproval): string {
    return `${this.origin}${APPROVE_PATH}${p.token}`;
  }

  /** The open question about this press, if one is waiting or answered and not yet used. */
  find(key: string): PendingApproval | undefined {
    this.sweep();
    for (const p of this.byToken.values()) if (p.key === key && !p.used && !p.closed) return p;
    return undefined;
  }

  byId(id: string): PendingApproval | undefined {
    this.sweep();
    for (const p of this.byToken.values()) if (p.id === id && !p.closed) return p;
    return undefined;
  }

  /** Opens a question about a press, or gives the open one about the same press (the link stays the same). */
  open(key: string, request: ApprovalRequest, now: PendingApproval['now']): PendingApproval {
    const open = this.find(key);
    if (open) {
      open.expiresAt = Date.now() + this.openMs;
      return open;
    }
    const p: PendingApproval = {
      key,
      id: randomBytes(9).toString('base64url'),
      token: randomBytes(24).toString('base64url'),
      request,
      askedAt: Date.now(),
      now,
      expiresAt: Date.now() + this.openMs,
      waiters: new Set(),
    };
    this.byToken.set(p.token, p);
    return p;
  }

  /**
   * The person's answer, waiting up to `ms` for it (null: none yet). An answer is handed out once: a second
   * call about the same press finds no answer and asks again.
   */
  async decision(p: PendingApproval, ms: number, signal?: AbortSignal): Promise<PageDecision | null> {
    p.expiresAt = Math.max(p.expiresAt, Date.now() + ms + this.openMs);
    const d =
      p.decision ??
      (await new Promise<PageDecision | null>((resolve) => {
        const done = (v: PageDecision | null) => {
          clearTimeout(timer);
          p.waiters.delete(done);
          signal?.removeEventListener('abort', abort);
          resolve(v);
        };
        const abort = () => done(null);
        const timer = setTimeout(() => done(null), ms);
        p.waiters.add(done);
        signal?.addEventListener('abort', abort);
        if (signal?.aborted) abort();
      }));
    if (!d || p.used) return null;
    p.used = true;
    p.expiresAt = Date.now() + this.openMs;
    return d;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private sweep(): void {
    const t = Date.now();
    for (const [token, p] of this.byToken) if (p.expiresAt < t) this.byToken.delete(token);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const secure = {
      'cache-control': 'no-store',
      // no-referrer would make Chromium send `Origin: null` with the page's own form.
      'referrer-policy': 'same-origin',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
    };
    // Only this machine's names (DNS rebinding). The person may arrive by a link from anywhere, but an answer
    // is posted only by this page itself (a browser always sends Origin with a POST), and another site's
    // script loads nothing from here.
    const host = hostName(req.headers.host);
    const own = [this.origin, `http://localhost:${this.port}`];
    const post = req.method === 'POST';
    const foreign = post
      ? !own.includes(req.headers.origin ?? '')
      : req.headers['sec-fetch-site'] === 'cross-site' && req.headers['sec-fetch-mode'] !== 'navigate';
    if (!LOOPBACK.has(host) || foreign) {
      res.writeHead(403, { 'content-type': 'text/plain', ...secure });
      res.end('trueclick approval page: not from this page.');
      return;
    }
    const url = new URL(req.url ?? '/', this.origin);
    const m = url.pathname.slice(APPROVE_PATH.length).match(/^([A-Za-z0-9_-]{32})(\/then\.png|\/now\.png)?$/);
    const token = url.pathname.startsWith(APPROVE_PATH) && m ? m[1] : undefined;
    const p = token ? [...this.byToken.values()].find((x) => sameSecret(x.token, token)) : undefined;
    if (!p || p.closed) {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8', ...secure });
      res.end(closedPageHtml('This approval link is unknown or has expired. Nothing will be pressed.'));
      return;
    }
    const part = m?.[2];
    if (part && req.method === 'GET') {
      const png =
        part === '/then.png'
          ? p.request.crop
            ? Buffer.from(p.request.crop.base64, 'base64')
            : undefined
          : await p.now().catch(() => undefined);
      res.writeHead(png ? 200 : 404, { 'content-type': png ? 'image/png' : 'text/plain', ...secure });
      res.end(png ?? 'no image');
      return;
    }
    if (req.method === 'POST') {
      const body = await readForm(req);
      const answer = body.get('answer');
      if (p.decision) {
        res.writeHead(409, { 'content-type': 'text/html; charset=utf-8', ...secure });
        res.end(closedPageHtml(`This press was already ${p.decision.approved ? 'approved' : 'denied'}.`));
        return;
      }
      if (answer !== 'approve' && answer !== 'deny') {
        res.writeHead(400, { 'content-type': 'text/plain', ...secure });
        res.end('answer must be approve or deny');
        return;
      }
      const d: PageDecision = { approved: answer === 'approve', at: Date.now() };
      p.decision = d;
      for (const w of [...p.waiters]) w(d);
      res.writeHead(303, { location: this.urlOf(p), ...secure });
      res.end();
      return;
    }
    if (req.method !== 'GET') {
      res.writeHead(405, { allow: 'GET, POST', ...secure });
      res.end();
      return;
    }
    const nonce = randomBytes(12).toString('base64');
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; img-src 'self'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
      ...secure,
    });
    res.end(
      approvalPageHtml({
        request: p.request,
        frameAge:
          p.request.frameAgeMs !== null ? ageOf(p.request.frameAgeMs + (Date.now() - p.askedAt)) : null,
        asked: ageOf(Date.now() - p.askedAt),
        decision: p.decision ?? null,
        nonce,
        base: this.urlOf(p),
      }),
    );
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 4096) break;
  }
  return new URLSearchParams(body);
}
