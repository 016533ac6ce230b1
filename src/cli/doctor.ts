import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { findChromium } from '../browser/plumbing/chromium-path.js';
import { openBrowser } from '../browser/plumbing/launch.js';
import { openUrl } from '../browser/plumbing/navigation.js';
import { captureFrame } from '../browser/snapshot/capture.js';
import { VERSION } from '../version.js';
import { type BrowserFlags, sessionOptions } from './options.js';

/** Answers "will trueclick work here?": browser found, versions, and the frame it measures. */
export async function doctor(flags: BrowserFlags): Promise<number> {
  const out: string[] = [`trueclick ${VERSION}, Node ${process.version}, playwright-core ${chromium.name()}`];
  let ok = true;
  if (!flags.cdpEndpoint) {
    try {
      const path = findChromium(flags.executablePath);
      const version = execFileSync(path, ['--version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim();
      out.push(`browser: ${path} (${version})`);
    } catch (err) {
      out.push(`browser: NOT FOUND: ${(err as Error).message}. ${(err as { hint?: string }).hint ?? ''}`);
      console.log(out.join('\n'));
      return 1;
    }
  }
  try {
    const handle = await openBrowser(sessionOptions(flags));
    try {
      await openUrl(handle.driver, 'data:text/html,<title>trueclick doctor</title><p>ok</p>');
      const c = await captureFrame(handle.driver);
      out.push(
        `frame: image ${c.image.width}×${c.image.height} px for a ${c.css.width}×${c.css.height} CSS viewport, devicePixelRatio ${c.devicePixelRatio}, ${(c.css.width / c.image.width).toFixed(4)} CSS px per image px`,
      );
      out.push(
        `browser version: ${handle.browser?.version() ?? '(a persistent profile)'}${handle.attached ? ' (attached over CDP)' : ''}`,
      );
    } finally {
      await handle.close();
    }
  } catch (err) {
    ok = false;
    out.push(`launch: FAILED: ${(err as Error).message} ${(err as { hint?: string }).hint ?? ''}`);
  }
  out.push(ok ? 'All good.' : 'Not ready.');
  console.log(out.join('\n'));
  return ok ? 0 : 1;
}
