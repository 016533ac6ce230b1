import { readFile, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';
import { BrowserError } from './errors.js';

const PORT_FILE = 'DevToolsActivePort';

/** Short: a port that answers at all answers at once on loopback, and a stale one is refused at once. */
const LISTEN_BUDGET_MS = 2_000;

const NOT_ALLOWED_HINT =
  'In Chrome 144 or later open chrome://inspect/#remote-debugging and turn on "Allow remote debugging for this browser instance", keep Chrome running, then retry; or pass --user-data-dir DIR to name the profile folder (the parent of the "Profile Path" chrome://version shows); or start Chromium with --remote-debugging-port=9222 and use --cdp-endpoint http://127.0.0.1:9222';

/**
 * The user-data folders Chrome and Chromium use when not told otherwise, stable channel first. Paths are
 * joined the way the platform writes them, so every platform's list can be checked on any machine.
 */
export function defaultProfileDirs(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string[] {
  if (platform === 'win32') {
    const local = env.LOCALAPPDATA || win32.join(home, 'AppData', 'Local');
    return [
      ...['Chrome', 'Chrome Beta', 'Chrome Dev', 'Chrome SxS'].map((c) =>
        win32.join(local, 'Google', c, 'User Data'),
      ),
      win32.join(local, 'Chromium', 'User Data'),
    ];
  }
  if (platform === 'darwin') {
    const support = posix.join(home, 'Library', 'Application Support');
    return [
      ...['Chrome', 'Chrome Beta', 'Chrome Dev', 'Chrome Canary'].map((c) =>
        posix.join(support, 'Google', c),
      ),
      posix.join(support, 'Chromium'),
    ];
  }
  // Chrome's own order on Linux: $CHROME_CONFIG_HOME (it sets this for itself in Snap and Flatpak), then XDG.
  const config = env.CHROME_CONFIG_HOME || env.XDG_CONFIG_HOME || posix.join(home, '.config');
  return [
    'google-chrome',
    'google-chrome-beta',
    'google-chrome-unstable',
    'google-chrome-canary',
    'chromium',
  ].map((d) => posix.join(config, d));
}

/** The port file in `dir` and when it was written, if there is one. */
async function portFile(dir: string): Promise<{ file: string; mtime: number } | undefined> {
  const file = join(dir, PORT_FILE);
  try {
    const s = await stat(file);
    return s.isFile() ? { file, mtime: s.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether something accepts a TCP connection on the loopback port (Chrome's consented mode may serve no HTTP). */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(LISTEN_BUDGET_MS, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The DevTools WebSocket URL of the running Chrome that allows remote debugging: from the DevToolsActivePort
 * file in `userDataDir`, else in the default folders (the newest file, when several channels run). A file
 * outlives a browser that crashed, so the port must also be listening.
 */
export async function findDevToolsEndpoint(userDataDir?: string): Promise<string> {
  const dirs = userDataDir ? [userDataDir] : defaultProfileDirs();
  const found = (await Promise.all(dirs.map(portFile)))
    .filter((f) => f !== undefined)
    .sort((a, b) => b.mtime - a.mtime)[0];
  if (!found)
    throw new BrowserError(
      'CONNECT_FAILED',
      `No running Chrome allows remote debugging: no ${PORT_FILE} file in ${dirs.join(', ')}`,
      NOT_ALLOWED_HINT,
    );
  const text = await readFile(found.file, 'utf8').catch(() => '');
  const [portLine = '', target = ''] = text.split(/\r?\n/).map((l) => l.trim());
  const port = /^\d{1,5}$/.test(portLine) ? Number(portLine) : 0;
  if (port < 1 || port > 65_535 || !target.startsWith('/devtools/browser/'))
    throw new BrowserError(
      'CONNECT_FAILED',
      `${found.file} is malformed: expected a port on its first line and /devtools/browser/… on its second, found ${JSON.stringify(text.slice(0, 100))}`,
      'Turn remote debugging off and on again at chrome://inspect/#remote-debugging (or restart Chrome) so it writes the file anew, then retry.',
    );
  if (!(await listens(port)))
    throw new BrowserError(
      'CONNECT_FAILED',
      `${found.file} names port ${port}, but nothing listens there: the browser quit or turned remote debugging off`,
      'Start Chrome, turn on "Allow remote debugging for this browser instance" at chrome://inspect/#remote-debugging, keep Chrome running, then retry.',
    );
  return `ws://127.0.0.1:${port}${target}`;
}
