/**
 * Click speed (SPEC S7): trueclick's guarded browser_click (frame + image px of a real target, verdict OK)
 * against Playwright MCP browser_mouse_click_xy and chrome-devtools-mcp click_at at the same CSS point, plus
 * a bare CDP press + release for reference. Also the hit-test → event gap (`exposureMs`) over many clicks.
 */
import { PAGES, ratioCheck } from './capture.js';
import type { Ctx } from './context.js';
import { emptySection, type Section } from './results.js';
import { interleaved, type Op, peerRounds } from './rounds.js';
import { summarize } from './stats.js';
import { type Frame, imagePx, type Report, type Trueclick } from './trueclick.js';

/** A real target on each page (CSS px in 1280×800): /blank's #only, /text's row 3 (its words). */
export const TARGETS: Record<string, { x: number; y: number; what: string }> = {
  '/blank': { x: 640, y: 400, what: '#only' },
  '/text': { x: 400, y: 16 + 3 * 28 + 14, what: '#row-3' },
};

/** One guarded click by frame and image px; returns the report, counting any verdict but OK as a failure. */
async function guarded(
  tc: Trueclick,
  frame: Frame,
  css: { x: number; y: number },
  bad: Report[],
): Promise<Report> {
  const p = imagePx(frame, css);
  const r = await tc.click({ frame: frame.id, x: p.x, y: p.y });
  if (r.verdict !== 'OK') bad.push(r);
  return r;
}

export async function measureClick(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const { opts } = ctx;
  const [tab, tc, pw, cdm] = await Promise.all([
    ctx.tab(),
    ctx.trueclick(),
    ctx.playwright(),
    ctx.devtools(),
  ]);
  const exposure: number[] = [];
  const bad: Report[] = [];
  for (const path of PAGES) {
    const target = TARGETS[path] as { x: number; y: number; what: string };
    const url = ctx.pages.url(path, { run: `click${path.replace('/', '-')}` });
    await Promise.all([tab.navigate(url), tc.navigate(url), pw?.navigate(url), cdm?.navigate(url)]);
    const { frame } = await tc.screenshot();
    const ops: Op[] = [
      {
        key: 'trueclick',
        run: async () => {
          const r = await guarded(tc, frame, target, bad);
          if (r.exposureMs !== undefined) exposure.push(r.exposureMs);
        },
      },
      { key: 'cdp', run: () => tab.click(target.x, target.y) },
      { key: 'cdp.hover', run: () => tab.hoverClick(target.x, target.y) },
    ];
    const peer = peerRounds(opts.quick);
    if (pw) ops.push({ key: 'pw', run: () => pw.click(target.x, target.y), ...peer });
    if (cdm) ops.push({ key: 'cdm', run: () => cdm.click(target.x, target.y), ...peer });
    ctx.log(
      `click ${path}: ${opts.warmup} warm-up + ${opts.runs} rounds of ${ops.length} clicks at ${target.what}${peer.rounds ? ` (the peers ${peer.rounds} rounds)` : ''}`,
    );
    const t = await interleaved(ops, opts.warmup, opts.runs);
    const label: Record<string, string> = {
      trueclick: `trueclick browser_click {frame, x, y} (guarded, MCP)`,
      cdp: 'bare CDP press + release (reference)',
      'cdp.hover': 'bare CDP move, then press + release (a hover-first click, as Playwright clicks)',
      pw: 'Playwright MCP browser_mouse_click_xy',
      cdm: 'chrome-devtools-mcp click_at',
    };
    for (const [key, v] of t) {
      out.measures.push({
        key: `click.${path}.${key}`,
        thing: label[key] ?? key,
        page: path,
        summary: v.summary,
      });
    }
    const tcT = t.get('trueclick');
    out.checks.push(
      ratioCheck(
        `click.${path}.vs-bare`,
        `trueclick guarded click ${path}`,
        tcT,
        t.get('cdp'),
        'bare CDP press + release',
        2,
        false,
      ),
      ratioCheck(
        `click.${path}.vs-hover`,
        `trueclick guarded click ${path}`,
        tcT,
        t.get('cdp.hover'),
        'bare CDP move + press + release',
        2,
        false,
      ),
    );
    // "≥ 5× faster": the peer's median over trueclick's, so the check reads peer/trueclick ≥ 5.
    for (const [key, name] of [
      ['pw', 'Playwright MCP browser_mouse_click_xy'],
      ['cdm', 'chrome-devtools-mcp click_at'],
    ] as const) {
      const c = ratioCheck(
        `click.${path}.vs-${key}`,
        `trueclick guarded click ${path}`,
        t.get(key),
        tcT,
        '',
        5,
        false,
      );
      const v = c.value;
      out.checks.push({
        ...c,
        measured: Number.isFinite(v) ? `${v.toFixed(1)}× faster than ${name}` : `— (${name} not measured)`,
        target: `≥ 5× faster than ${name}`,
        met: Number.isFinite(v) ? v >= 5 : null,
      });
    }
  }
  if (bad.length > 0) {
    ctx.warn(
      `${bad.length} timed trueclick clicks were not OK: ${bad
        .slice(0, 3)
        .map((r) => `${r.verdict}: ${r.message}`)
        .join(' | ')}`,
    );
  }
  if (exposure.length > 0) {
    out.gaps.push({
      key: 'exposure.click-rounds',
      thing: 'hit-test → first trusted event (exposureMs), timed clicks on /blank and /text',
      summary: summarize(exposure),
    });
  }
  return out;
}

/** Many guarded clicks on a quiet page, only for the distribution of the hit-test → event gap. */
export async function measureExposure(ctx: Ctx): Promise<Section> {
  const out = emptySection();
  const n = ctx.opts.exposureClicks;
  if (n === 0) return out;
  const tc = await ctx.trueclick();
  await tc.navigate(ctx.pages.url('/blank', { run: 'exposure' }));
  const { frame } = await tc.screenshot();
  ctx.log(`exposure: ${n} guarded clicks on /blank`);
  const gaps: number[] = [];
  const bad: Report[] = [];
  for (let i = 0; i < n; i++) {
    const r = await guarded(tc, frame, TARGETS['/blank'] as { x: number; y: number }, bad);
    if (r.exposureMs !== undefined) gaps.push(r.exposureMs);
  }
  if (bad.length > 0)
    ctx.warn(`exposure: ${bad.length} of ${n} clicks were not OK (${bad[0]?.verdict}: ${bad[0]?.message})`);
  if (gaps.length < n) ctx.warn(`exposure: ${n - gaps.length} of ${n} OK clicks carried no exposureMs`);
  out.gaps.push({
    key: 'exposure.blank',
    thing: `hit-test → first trusted event (exposureMs), ${n} clicks on /blank`,
    summary: summarize(gaps),
  });
  return out;
}
