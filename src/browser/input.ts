import type { PageDriver } from './page-driver.js';

/** Trusted mouse events, each awaited: pipelined CDP input is not ordered against checks (baselines.md). */
export async function dispatchClick(
  driver: PageDriver,
  p: { x: number; y: number },
  opts: { button?: 'left' | 'right' | 'middle'; clickCount?: number } = {},
): Promise<void> {
  const button = opts.button ?? 'left';
  const clickCount = opts.clickCount ?? 1;
  for (let i = 1; i <= clickCount; i++) {
    await driver.send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      x: p.x,
      y: p.y,
      button,
      clickCount: i,
      buttons: 1,
    });
    await driver.send('Input.dispatchMouseEvent', {
      type: 'mouseReleased',
      x: p.x,
      y: p.y,
      button,
      clickCount: i,
      buttons: 0,
    });
  }
}

/**
 * Hover first, before the check: an awaited mouseMoved waits for a rendered frame (tens of ms here), which
 * must not sit inside the check → press window.
 */
export async function moveMouse(driver: PageDriver, p: { x: number; y: number }): Promise<void> {
  await driver.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: p.x, y: p.y, button: 'none' });
}

export async function wheel(
  driver: PageDriver,
  at: { x: number; y: number },
  dx: number,
  dy: number,
): Promise<void> {
  await driver.send('Input.dispatchMouseEvent', {
    type: 'mouseWheel',
    x: at.x,
    y: at.y,
    deltaX: dx,
    deltaY: dy,
  });
}

export async function currentScroll(driver: PageDriver): Promise<{ x: number; y: number }> {
  const m = await driver.send('Page.getLayoutMetrics', {});
  return { x: m.cssVisualViewport.pageX, y: m.cssVisualViewport.pageY };
}

/** Waits until two readings of the scroll offset agree (a wheel scroll may animate). */
export async function settledScroll(driver: PageDriver, budgetMs = 1500): Promise<{ x: number; y: number }> {
  const end = Date.now() + budgetMs;
  let last = await currentScroll(driver);
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    const now = await currentScroll(driver);
    if (now.x === last.x && now.y === last.y) return now;
    last = now;
  }
  return last;
}
