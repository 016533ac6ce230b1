import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { BrowserError } from './errors.js';

const INSTALL_HINT =
  "Install Debian's Chromium with: sudo apt-get install -y chromium  (or pass --executable-path /path/to/chromium, or set CHROME_PATH)";

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds Chromium: an explicit path, then CHROME_PATH, then Debian's /usr/bin/chromium, then PATH. */
export function findChromium(explicit?: string): string {
  const candidates = [explicit, process.env.CHROME_PATH].filter((p): p is string => Boolean(p));
  for (const p of candidates) {
    if (isExecutable(p)) return p;
    throw new BrowserError('NO_BROWSER', `No executable browser at ${p}`, INSTALL_HINT);
  }
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .flatMap((dir) => ['chromium', 'chromium-browser', 'google-chrome'].map((name) => join(dir, name)));
  for (const p of ['/usr/bin/chromium', ...onPath]) if (isExecutable(p)) return p;
  throw new BrowserError('NO_BROWSER', 'No Chromium found on this machine', INSTALL_HINT);
}
