/**
 * Screenshot speed (SPEC S7): trueclick's browser_screenshot (frame and DOM snapshot included) against a
 * bare full-resolution CDP capture at DPR 2, Playwright MCP browser_take_screenshot {scale: css | device}
 * and chrome-devtools-mcp take_screenshot, on a near-blank and a text-heavy page, interleaved round by round.
 */
import { TrueclickSession } from '../src/index.js';
import { type CdpTab, DPR, VIEWPORT } from './cdp.js';
import type { Ctx } from './context.js';
import type { DevtoolsMcp, PlaywrightMcp } from './peers.js';
import { type Check, emptySection, type Measure, type Section } from './results.js';
import { interleaved, type Op, peerRounds, type Timed } from './rounds.js';
import { fmtRatio } from './stats.js';
import type { Trueclick } from './trueclick.js';

export const PAGES = ['/blank', '/text'] as const;

type Img = { width: number; height: number; base64Bytes: number } | null | undefined;
const size = (i: Img) => (i ? `${i.width}×${i.height}` : undefined);
const kb = (i: Img) => (i ? `${Math.round(i.base64Bytes / 1024)} KB base64` : undefined);

/** Ratio check a/b against a limit; null when either side is missing. */
export function ratioCheck(
  key: string,
  thing: string,
  a: Timed | undefined,
  b: Timed | undefined,
  against: string,
  limit: number,
  strict: boolean,
): Check {
  const value = a && b ? a.summary.median / b.summary.median : Number.NaN;
  const ok = Number.isFinite(value) ? (strict ? value < limit : value <= limit) : null;
  return {
    key,
    thing,
    measured: Number.isFinite(value) ? `${fmtRatio(value)} ${against}` : `— (${against} not measured)`,
    value,
    target: `${strict ? '<' : '≤'} ${limit.toFixed(1)}× ${against}`,
    met: ok,
  };
}

export async function measureCapture(ctx: Ctx): Promise<Section> {
  const [tab, tc, pw, cdm] = await Promise.all([
    ctx.tab(),
    ctx.trueclick(),
    ctx.playwright(),
    ctx.devtools(),
  ]);
  // The same screenshot in this process, with no MCP between: what of trueclick's time is the MCP hop (an
  // image's base64 through JSON and the SDK's checks) and what is the capture itself.
  const lib = new TrueclickSession({ deviceScaleFactor: DPR });
  try {
    return await measure(ctx, { tab, tc, pw, cdm, lib });
  } finally {
    await lib.close();
  }
}

interface Subjects {
  tab: CdpTab;
  tc: Trueclick;
  pw: PlaywrightMcp | null;
  cdm: DevtoolsMcp | null;
  lib: TrueclickSession;
}

async function measure(ctx: Ctx, { tab, tc, pw, cdm, lib }: Subjects): Promise<Section> {
  const out = emptySection();
  const { opts } = ctx;
  for (const path of PAGES) {
    const url = ctx.pages.url(path, { run: `capture${path.replace('/', '-')}` });
    await Promise.all([
      tab.navigate(url),
      tc.navigate(url),
      pw?.navigate(url),
      cdm?.navigate(url),
      lib.navigate(url),
    ]);
    // trueclick's own image size, so the scaled bare capture below is the same work Chromium does for it.
    const first = await tc.screenshot();
    const scale = first.frame.image.width / (VIEWPORT.width * DPR);
    const ops: Op[] = [
      { key: 'cdp.full', run: () => tab.captureFull() },
      { key: 'cdp.scaled', run: () => tab.captureScaled(scale) },
      { key: 'trueclick', run: async () => (await tc.screenshot()).image },
      {
        key: 'trueclick.lib',
        run: async () => {
          const { frame, base64 } = await lib.screenshot();
          const { width, height } = frame.geometry.image;
          return { width, height, base64Bytes: base64.length };
        },
      },
    ];
    const peer = peerRounds(opts.quick);
    if (pw) {
      ops.push({ key: 'pw.css', run: () => pw.screenshot('css'), ...peer });
      ops.push({ key: 'pw.device', run: () => pw.screenshot('device'), ...peer });
    }
    if (cdm) ops.push({ key: 'cdm', run: () => cdm.screenshot(), ...peer });
    ctx.log(
      `capture ${path}: ${opts.warmup} warm-up + ${opts.runs} rounds of ${ops.length} screenshots${peer.rounds ? ` (the peers ${peer.rounds} rounds)` : ''}`,
    );
    const t = await interleaved(ops, opts.warmup, opts.runs);
    const label: Record<string, string> = {
      'cdp.full': 'bare CDP Page.captureScreenshot png, full resolution (baseline)',
      'cdp.scaled': "bare CDP capture at trueclick's image size (clip + scale), reference",
      trueclick: 'trueclick browser_screenshot (MCP; frame + DOM snapshot)',
      'trueclick.lib': "trueclick's library screenshot() in this process, no MCP (reference)",
      'pw.css': "Playwright MCP browser_take_screenshot {scale:'css'}",
      'pw.device': "Playwright MCP browser_take_screenshot {scale:'device'}",
      cdm: 'chrome-devtools-mcp take_screenshot',
    };
    for (const [key, v] of t) {
      const img = v.last as Img;
      const m: Measure = {
        key: `capture.${path}.${key}`,
        thing: label[key] ?? key,
        page: path,
        summary: v.summary,
      };
      const s = size(img);
      if (s) m.image = s;
      const note = kb(img);
      if (note) m.note = note;
      out.measures.push(m);
    }
    if (cdm) {
      const img = t.get('cdm')?.last as Img;
      if (img && img.width !== VIEWPORT.width * DPR) {
        ctx.warn(
          `chrome-devtools-mcp image on ${path} is ${size(img)}, not ${VIEWPORT.width * DPR}×${VIEWPORT.height * DPR}: its DPR emulation did not hold`,
        );
      }
    }
    const tcT = t.get('trueclick');
    out.checks.push(
      ratioCheck(
        `capture.${path}.vs-cdp`,
        `trueclick browser_screenshot ${path}`,
        tcT,
        t.get('cdp.full'),
        'bare CDP full-res',
        1,
        false,
      ),
      ratioCheck(
        `capture.${path}.vs-scaled`,
        `trueclick browser_screenshot ${path}`,
        tcT,
        t.get('cdp.scaled'),
        'bare CDP capture of the same size',
        1,
        false,
      ),
      ratioCheck(
        `capture.${path}.vs-pw`,
        `trueclick browser_screenshot ${path}`,
        tcT,
        t.get('pw.device'),
        "Playwright MCP {scale:'device'}",
        1,
        true,
      ),
      ratioCheck(
        `capture.${path}.vs-cdm`,
        `trueclick browser_screenshot ${path}`,
        tcT,
        t.get('cdm'),
        'chrome-devtools-mcp take_screenshot',
        1,
        true,
      ),
    );
  }
  return out;
}
