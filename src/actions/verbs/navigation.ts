import { defaultPolicy, refusal, type UrlPolicy } from '../../browser/plumbing/url-policy.js';
import { ActionError } from '../check/errors.js';

/** The URL to open, or a refusal naming what is wrong with it (not absolute, a scheme or origin not allowed). */
export function checkUrl(url: string, policy: UrlPolicy = defaultPolicy(), field = 'url'): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ActionError(
      'BAD_URL',
      `${JSON.stringify(url.slice(0, 200))} is not an absolute URL.`,
      'Pass a full URL such as https://example.com/.',
      field,
    );
  }
  const why = refusal(policy, parsed);
  if (why)
    throw new ActionError(
      'URL_NOT_ALLOWED',
      `${JSON.stringify(url.slice(0, 200))} cannot be opened: ${why}.`,
      'Open an http(s) page this trueclick allows; the person running trueclick sets --allow-url-scheme, --allowed-origins and --blocked-origins.',
      field,
    );
  return parsed;
}
