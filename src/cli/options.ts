import { InvalidArgumentError } from 'commander';
import type { SessionOptions } from '../actions/session/session.js';
import { DEFAULT_SCHEMES } from '../browser/plumbing/url-policy.js';
import { checkInstance } from '../mcp/handles.js';

export function parseViewport(v: string): { width: number; height: number } {
  const m = /^(\d+)x(\d+)$/i.exec(v.trim());
  if (!m) throw new InvalidArgumentError('expected WxH in CSS px, e.g. 1280x800');
  const width = Number(m[1]);
  const height = Number(m[2]);
  if (width < 100 || height < 100 || width > 8000 || height > 8000)
    throw new InvalidArgumentError('each side must be between 100 and 8000 CSS px');
  return { width, height };
}

export function parsePositive(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a positive number, got "${v}"`);
  return n;
}

export function parseNonNegativeInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`expected a whole number ≥ 0, got "${v}"`);
  return n;
}

/** A list flag: entries separated by commas or semicolons, blanks dropped. */
export function parseList(v: string): string[] {
  const items = v
    .split(/[;,]/)
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('expected one or more entries separated by , or ;');
  return items;
}

/** --browser-endpoint: one endpoint or several separated by commas. */
export function parseEndpoints(v: string): string[] {
  const items = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new InvalidArgumentError('expected a ws:// endpoint, or several separated by ,');
  return items;
}

/** A server's name in a fleet: it starts every session id and handle, and the proxy routes on it. */
export function parseInstance(v: string): string {
  try {
    return checkInstance(v);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

export interface BrowserFlags {
  executablePath?: string;
  cdpEndpoint?: string;
  browserEndpoint?: string[];
  isolated?: boolean;
  userDataDir?: string;
  autoConnect?: boolean;
  storageState?: string;
  deviceScaleFactor?: number;
  viewport?: { width: number; height: number };
  headless?: boolean;
  scaleSource?: 'emulated' | 'real';
  hideScrollbars?: boolean;
  maxImageEdge?: number;
  uploadDir?: string;
  allowUrlScheme?: string[];
  allowedOrigins?: string[];
  blockedOrigins?: string[];
}

export function sessionOptions(f: BrowserFlags): SessionOptions {
  const o: SessionOptions = {};
  if (f.executablePath) o.executablePath = f.executablePath;
  if (f.cdpEndpoint) o.cdpEndpoint = f.cdpEndpoint;
  if (f.browserEndpoint?.length) o.browserEndpoint = f.browserEndpoint;
  if (f.isolated) o.isolated = true;
  if (f.userDataDir) o.userDataDir = f.userDataDir;
  if (f.autoConnect) o.autoConnect = true;
  if (f.storageState) o.storageState = f.storageState;
  if (f.deviceScaleFactor !== undefined) o.deviceScaleFactor = f.deviceScaleFactor;
  if (f.viewport) o.viewport = f.viewport;
  if (f.headless !== undefined) o.headless = f.headless;
  if (f.scaleSource) o.scaleSource = f.scaleSource;
  if (f.hideScrollbars) o.hideScrollbars = true;
  if (f.maxImageEdge !== undefined) o.maxImageEdge = f.maxImageEdge;
  if (f.uploadDir) o.uploadDir = f.uploadDir;
  if (f.allowUrlScheme || f.allowedOrigins || f.blockedOrigins) {
    const schemes = [
      ...DEFAULT_SCHEMES,
      ...(f.allowUrlScheme ?? []).map((x) => x.replace(/:$/, '').toLowerCase()),
    ];
    o.urlPolicy = { schemes: [...new Set(schemes)] };
    if (f.allowedOrigins) o.urlPolicy.allowedOrigins = f.allowedOrigins;
    if (f.blockedOrigins) o.urlPolicy.blockedOrigins = f.blockedOrigins;
  }
  return o;
}
