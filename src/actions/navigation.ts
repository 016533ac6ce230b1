import { ActionError } from './errors.js';

/** URL schemes browser_navigate opens. */
const SCHEMES = ['http:', 'https:', 'file:', 'about:', 'data:'];

/** The URL to open, or a refusal naming what is wrong with it. */
export function checkUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ActionError(
      'BAD_URL',
      `${JSON.stringify(url.slice(0, 200))} is not an absolute URL.`,
      'Pass a full URL such as https://example.com/.',
      'url',
    );
  }
  if (!SCHEMES.includes(parsed.protocol)) {
    throw new ActionError(
      'BAD_URL',
      `Unsupported URL scheme ${parsed.protocol}`,
      'Use http:// or https://.',
      'url',
    );
  }
  return parsed;
}
