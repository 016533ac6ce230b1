import type { Browser, CDPSession } from 'playwright-core';

// Where the browser may go. Schemes are checked on every URL an agent types (browser_navigate, a new tab, a
// model's navigate); origins also on every document the browser itself requests (a link, a form, a
// script, a redirect, an iframe), through one Fetch interception at the browser target, which sees each
// redirect hop as a request of its own.

/** URL schemes an agent may open unless --allow-url-scheme adds more. */
export const DEFAULT_SCHEMES = ['http', 'https', 'about'];

export interface UrlPolicy {
  /** Schemes without the colon, e.g. ['http', 'https', 'about', 'data']. */
  schemes: string[];
  /** When set, only these origins may be opened (entries: https://host:port, host, *.host). */
  allowedOrigins?: string[];
  /** These origins may never be opened. */
  blockedOrigins?: string[];
  /**
   * trueclick's own pages for the person (the approval page): never reachable from the browser it drives, by
   * any request (a page, a form post, a fetch), so an agent cannot approve its own press.
   */
  reserved?: { origins: string[]; pathPrefix: string; why: string };
}

export const defaultPolicy = (): UrlPolicy => ({ schemes: [...DEFAULT_SCHEMES] });

/** One allow/block entry against a URL: a full origin, a host (any scheme and port), or *.domain. */
function matches(entry: string, url: URL): boolean {
  const e = entry.trim().toLowerCase();
  if (!e) return false;
  if (e.includes('://')) {
    try {
      return new URL(e).origin === url.origin;
    } catch {
      return false;
    }
  }
  const host = url.hostname.toLowerCase();
  if (e.startsWith('*.')) return host === e.slice(2) || host.endsWith(e.slice(1));
  return host === e || `${host}:${url.port}` === e;
}

/** Why a URL may not be opened, or null when it may. */
export function refusal(policy: UrlPolicy, url: URL): string | null {
  const scheme = url.protocol.replace(/:$/, '').toLowerCase();
  if (!policy.schemes.includes(scheme))
    return `the ${scheme}: scheme is not allowed (allowed: ${policy.schemes.map((s) => `${s}:`).join(', ')}; trueclick's --allow-url-scheme adds more)`;
  if (scheme !== 'http' && scheme !== 'https') return null;
  if (isReserved(policy, url)) return policy.reserved?.why ?? 'it is reserved';
  if (policy.blockedOrigins?.some((e) => matches(e, url)))
    return `${url.origin} is in trueclick's --blocked-origins`;
  if (policy.allowedOrigins && !policy.allowedOrigins.some((e) => matches(e, url)))
    return `${url.origin} is not in trueclick's --allowed-origins (${policy.allowedOrigins.join(', ')})`;
  return null;
}

function isReserved(policy: UrlPolicy, url: URL): boolean {
  const r = policy.reserved;
  return Boolean(r && (r.origins.includes(url.origin) || url.pathname.startsWith(r.pathPrefix)));
}

export interface BlockedRequest {
  url: string;
  reason: string;
  t: number;
  /** The CDP frame that asked for it (a tab's main frame, or an iframe's). */
  frameId: string;
}

/**
 * Fails every document request (page or iframe, each redirect hop too) the policy refuses, across the
 * whole browser. Only when the policy names origins: schemes alone are checked where URLs are typed.
 */
export async function enforceOrigins(
  browser: Browser,
  policy: UrlPolicy,
  onBlocked: (b: BlockedRequest) => void,
): Promise<CDPSession | null> {
  if (!policy.allowedOrigins && !policy.blockedOrigins && !policy.reserved) return null;
  const cdp = await browser.newBrowserCDPSession();
  cdp.on('Fetch.requestPaused', (e) => {
    let why: string | null = null;
    try {
      why = refusal(policy, new URL(e.request.url));
    } catch {
      why = null;
    }
    if (why) {
      onBlocked({ url: e.request.url, reason: why, t: Date.now(), frameId: e.frameId });
      void cdp
        .send('Fetch.failRequest', { requestId: e.requestId, errorReason: 'BlockedByClient' })
        .catch(() => {});
    } else void cdp.send('Fetch.continueRequest', { requestId: e.requestId }).catch(() => {});
  });
  const documents = policy.allowedOrigins || policy.blockedOrigins;
  // Reserved pages are refused whatever asks for them: a script's fetch or an image as well as a document.
  const reserved = policy.reserved
    ? [...policy.reserved.origins.map((o) => `${o}/*`), `*${policy.reserved.pathPrefix}*`]
    : [];
  await cdp.send('Fetch.enable', {
    patterns: [
      ...(documents
        ? [{ urlPattern: '*', resourceType: 'Document' as const, requestStage: 'Request' as const }]
        : []),
      ...reserved.map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })),
    ],
  });
  return cdp;
}
