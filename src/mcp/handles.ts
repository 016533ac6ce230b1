import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { TrueclickError } from '../geometry/index.js';

// Under MCP 2026-07-28 there are no protocol sessions: a browser session is named by a handle the server
// mints and the client passes back as the `session` argument (SEP-2567), mirrored into an Mcp-Param-Session
// header (SEP-2243) so a proxy can route on it. The handle arrives from the client, so it is signed: any
// server of a fleet (one shared secret) can tell its own, another instance's, a forged one and an old one.

/** How long a handle is honoured at most, whatever its session does: a leaked handle does not live on. */
export const HANDLE_TTL_MS = 24 * 3600_000;

/** The header a Streamable HTTP client mirrors the `session` argument into. */
export const SESSION_HEADER = 'Session';

const INSTANCE = /^[a-z0-9-]{1,32}$/;

export interface HandleKeys {
  /** This server's name in the fleet; every handle it mints starts with it, and the proxy routes on that. */
  instance: string;
  /** The HMAC key every server of the fleet shares. */
  secret: string;
}

/** What a handle names once its signature holds. */
export interface HandleClaim {
  instance: string;
  /** The session's id on that instance. */
  sid: string;
  issuedAt: number;
}

export function checkInstance(name: string): string {
  if (!INSTANCE.test(name))
    throw new Error(
      `--instance "${name.slice(0, 40)}" is not a fleet name: use 1-32 of a-z, 0-9 and -, e.g. tc1.`,
    );
  return name;
}

/** A fresh instance name for a server started without one. */
export const randomInstance = () => `tc${randomBytes(3).toString('hex')}`;

/** Who a handle is bound to: the bearer token the caller presented, by hash; none without a token. */
export const callerOf = (token: string | undefined) =>
  token ? createHash('sha256').update(token).digest('base64url').slice(0, 16) : '';

function mac(keys: HandleKeys, body: string, caller: string): string {
  return createHmac('sha256', keys.secret).update(`${body}|${caller}`).digest('base64url').slice(0, 27);
}

/** `<instance>.<sid>.<issued, base 36>.<mac>`: only URL- and header-safe characters. */
export function mintHandle(keys: HandleKeys, sid: string, caller: string, now = Date.now()): string {
  const body = `${keys.instance}.${sid}.${now.toString(36)}`;
  return `${body}.${mac(keys, body, caller)}`;
}

export const newSid = () => randomBytes(16).toString('base64url');

const refuse = (code: string, problem: string, hint: string, kind: 'bad_input' | 'session_gone') =>
  new TrueclickError(code, problem, hint, 'session', kind);

export const START_AGAIN =
  'Call browser_navigate with a url and no session to start a new one, then pass the session it returns.';

/**
 * The claim a handle makes, once its signature holds for this caller and it is not too old. A forged,
 * altered or another caller's handle is one refusal (telling them apart would tell a forger which part to
 * change).
 */
export function readHandle(keys: HandleKeys, handle: string, caller: string, now = Date.now()): HandleClaim {
  const parts = handle.split('.');
  const [instance, sid, issued, sig] = parts;
  if (parts.length !== 4 || !instance || !sid || !issued || !sig)
    throw refuse(
      'BAD_HANDLE',
      `session ${JSON.stringify(handle.slice(0, 60))} is not a handle trueclick minted.`,
      `Pass the session string browser_navigate returned, unchanged. ${START_AGAIN}`,
      'bad_input',
    );
  const want = Buffer.from(mac(keys, `${instance}.${sid}.${issued}`, caller));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got))
    throw refuse(
      'BAD_HANDLE',
      'This session handle was not minted by this server fleet for this caller (altered, forged, or minted for another token).',
      START_AGAIN,
      'bad_input',
    );
  const issuedAt = Number.parseInt(issued, 36);
  if (!(now - issuedAt < HANDLE_TTL_MS))
    throw refuse(
      'SESSION_GONE',
      `This session handle expired: it was minted ${Math.round((now - issuedAt) / 3600_000)} h ago, and handles last ${HANDLE_TTL_MS / 3600_000} h.`,
      START_AGAIN,
      'session_gone',
    );
  return { instance, sid, issuedAt };
}

/** Why a signed handle names no session here: it lives on another server, or it ended. */
export function goneHere(keys: HandleKeys, claim: HandleClaim, why: 'idle' | 'unknown'): TrueclickError {
  if (claim.instance !== keys.instance)
    return refuse(
      'SESSION_GONE',
      `This session lives on server ${claim.instance}, and this is ${keys.instance}: ${claim.instance} is gone or the proxy did not route by the Mcp-Param-Session header. Its browser, tabs and frames are lost.`,
      START_AGAIN,
      'session_gone',
    );
  return refuse(
    'SESSION_GONE',
    why === 'idle'
      ? 'This session was closed after it sat unused too long (serve --session-idle); its browser, tabs and frames are gone.'
      : `Server ${keys.instance} holds no such session: it ended, or the server restarted since it was minted. Its browser, tabs and frames are gone.`,
    START_AGAIN,
    'session_gone',
  );
}
