import type { ServerContext } from '@modelcontextprotocol/server';
import type { TrueclickSession } from '../actions/session/session.js';
import { TrueclickError } from '../geometry/index.js';
import type { Trace } from '../trace/trace.js';
import { giveBackMemorySoon } from './give-back.js';
import {
  callerOf,
  goneHere,
  type HandleKeys,
  mintHandle,
  newSid,
  readHandle,
  START_AGAIN,
} from './handles.js';
import type { BoundSession, SessionSource } from './server.js';

/** One open browser session of an HTTP server, whichever era opened it. */
interface Entry {
  session: TrueclickSession;
  trace?: Trace;
  /** Ends it: a 2025-11-25 session closes its transport (which closes the session), a handle's closes itself. */
  end(): Promise<void>;
  /** When its last call ended (or began, while one runs). */
  lastSeen: number;
  /** Calls under way: a session running a call is not idle, however long the call takes. */
  busy: number;
  /** The caller it is bound to (a token's hash), for handle sessions. */
  caller?: string;
}

export interface TableLimits {
  maxSessions: number;
  /** A session nobody used for this long is closed (0 = never). */
  idleMs: number;
}

/** How many ended handle sessions are remembered, to say "closed after idling" rather than "unknown". */
const REMEMBERED = 4096;

/**
 * The browser sessions an HTTP server holds: 2025-11-25 MCP sessions by their Mcp-Session-Id, 2026-07-28
 * sessions by handle. Both count against one cap and both end when idle.
 */
export class SessionTable {
  private readonly entries = new Map<string, Entry>();
  /** Sessions being set up (a 2025 initialize under way), counted against the cap with the open ones. */
  private starting = 0;
  private readonly idled = new Set<string>();
  private readonly sweep: NodeJS.Timeout | undefined;

  constructor(private readonly limits: TableLimits) {
    this.sweep =
      limits.idleMs > 0
        ? setInterval(() => this.endIdle(), Math.min(60_000, Math.max(250, limits.idleMs / 4)))
        : undefined;
    this.sweep?.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** A refusal when the server holds as many sessions as it takes. */
  room(): TrueclickError | undefined {
    const open = this.entries.size + this.starting;
    if (open < this.limits.maxSessions) return undefined;
    return new TrueclickError(
      'TOO_MANY_SESSIONS',
      `${open} sessions are open, the most this server takes (--max-sessions ${this.limits.maxSessions}).`,
      'Close one (a 2025-11-25 client: DELETE /mcp with its mcp-session-id) or wait for an idle one to end.',
      undefined,
      'timeout',
    );
  }

  /** Holds a place for a session being set up; the returned function gives it back. */
  reserve(): () => void {
    this.starting++;
    let given = false;
    return () => {
      if (!given) this.starting--;
      given = true;
    };
  }

  add(id: string, e: Omit<Entry, 'lastSeen' | 'busy'>): void {
    this.entries.set(id, { ...e, lastSeen: Date.now(), busy: 0 });
  }

  get(id: string): Entry | undefined {
    return this.entries.get(id);
  }

  /** Forgets a session that ended (its close is the caller's). */
  drop(id: string): void {
    this.entries.delete(id);
  }

  /** Marks a session busy for one call; the returned function ends the call. */
  use(id: string): () => void {
    const e = this.entries.get(id);
    if (!e) return () => {};
    e.busy++;
    e.lastSeen = Date.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      e.busy--;
      e.lastSeen = Date.now();
    };
  }

  wasIdled(id: string): boolean {
    return this.idled.has(id);
  }

  private endIdle(): void {
    const now = Date.now();
    for (const [id, e] of this.entries)
      if (e.busy === 0 && now - e.lastSeen > this.limits.idleMs) {
        this.entries.delete(id);
        this.idled.add(id);
        if (this.idled.size > REMEMBERED) this.idled.delete(this.idled.values().next().value as string);
        void e.end().finally(() => giveBackMemorySoon());
      }
  }

  /** Ends every session and stops the sweep. */
  async closeAll(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    const open = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(open.map((e) => e.end().catch(() => {})));
  }
}

/**
 * Sessions named by handle (MCP 2026-07-28 over HTTP): browser_navigate without a handle mints one, every
 * other call must bring its handle, and a handle only ever reaches the session it was minted for, by the
 * caller (bearer token) it was minted for.
 */
export class HandleSessions implements SessionSource {
  readonly handles = true;

  constructor(
    private readonly table: SessionTable,
    private readonly keys: HandleKeys,
    private readonly open: () => { session: TrueclickSession; trace?: Trace },
  ) {}

  async bind(tool: string, handle: string | undefined, ctx: ServerContext): Promise<BoundSession> {
    const caller = callerOf(ctx.http?.authInfo?.token);
    if (handle === undefined) {
      if (tool !== 'browser_navigate')
        throw new TrueclickError(
          'NO_SESSION',
          `${tool} needs a session: this server names browser sessions by handle.`,
          START_AGAIN,
          'session',
        );
      const full = this.table.room();
      if (full) throw full;
      const sid = newSid();
      const { session, trace } = this.open();
      this.table.add(sid, { session, ...(trace ? { trace } : {}), caller, end: () => session.close() });
      return {
        session,
        ...(trace ? { trace } : {}),
        minted: mintHandle(this.keys, sid, caller),
        done: this.table.use(sid),
        abandon: () => {
          this.table.drop(sid);
          void session.close();
        },
      };
    }
    const claim = readHandle(this.keys, handle, caller);
    const e = claim.instance === this.keys.instance ? this.table.get(claim.sid) : undefined;
    // The signature already binds the caller; this is the second lock on the same door.
    if (!e || e.caller !== caller)
      throw goneHere(this.keys, claim, this.table.wasIdled(claim.sid) ? 'idle' : 'unknown');
    return { session: e.session, ...(e.trace ? { trace: e.trace } : {}), done: this.table.use(claim.sid) };
  }
}
