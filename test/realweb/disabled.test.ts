// DISABLED: no press on a control that cannot act, on a Bootstrap checkout page. Both directions: the same
// controls enabled are clicked and the server logs them. What was pressed comes from the server's log.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertRefused, cmd, corpusForFile } from './harness.js';

const ctx = corpusForFile();

describe('a control that cannot act is not pressed (DISABLED), and says why', () => {
  test('Place order: clicked while enabled; disabled after the screenshot, and before it', async () => {
    let { run, page } = await ctx.rw.open('checkout');
    let shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#place')));
    assert.equal(r.verdict, 'OK', r.message);
    const [placed] = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([placed?.method, placed?.do, placed?.id], ['POST', 'place-order', 'ORD-1042']);

    ({ run, page } = await ctx.rw.open('checkout'));
    shot = await ctx.tc.screenshot();
    await cmd(page, 'soldOut');
    const after = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#place')));
    assertRefused(after, 'DISABLED');
    assert.deepEqual(after.disabled, {
      reason: 'disabled',
      by: { tag: 'button', text: 'Place order' },
      inFrame: false,
    });
    assert.match(
      after.message,
      /button#place "Place order" cannot act: it is disabled\. It became so after frame f\d+/,
    );
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);

    ({ run, page } = await ctx.rw.open('checkout'));
    await cmd(page, 'soldOut');
    shot = await ctx.tc.screenshot();
    const before = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#place')), {
      text: 'Place order',
    });
    assertRefused(before, 'DISABLED');
    assert.equal(before.disabled?.inFrame, true);
    assert.match(before.message, /It was so in the frame too/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('a disabled fieldset, its legend still live; an aria-disabled link; an inert page behind a dialog', async () => {
    let { run, page } = await ctx.rw.open('checkout');
    let shot = await ctx.tc.screenshot();
    const express = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#express')));
    assertRefused(express, 'DISABLED');
    assert.equal(express.disabled?.reason, 'fieldset');
    assert.match(express.message, /it is in a disabled fieldset/);
    const legend = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#change-address')));
    assert.equal(legend.verdict, 'OK', legend.message);

    const gift = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#gift')));
    assertRefused(gift, 'DISABLED');
    assert.equal(gift.disabled?.reason, 'aria-disabled');

    ({ run, page } = await ctx.rw.open('checkout'));
    shot = await ctx.tc.screenshot();
    await cmd(page, 'openNotice');
    const terms = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#terms')));
    assertRefused(terms, 'DISABLED');
    assert.equal(terms.disabled?.reason, 'inert');
    assert.match(terms.message, /inert part of the page/);
    assert.deepEqual(await ctx.rw.actionsAfter(run), []);
  });

  test('typing into a read-only field is refused, nothing typed; into a writable one it goes', async () => {
    const { page } = await ctx.rw.open('checkout');
    const shot = await ctx.tc.screenshot();
    const { image, css } = shot.frame.geometry;
    const at = (p: { x: number; y: number }) => ({
      frame: shot.frame.id,
      x: (p.x * image.width) / css.width,
      y: (p.y * image.height) / css.height,
    });
    const coupon = await ctx.tc.type('SPRING', { target: at(await ctx.rw.centre(page.locator('#coupon'))) });
    assert.equal(coupon.typed, 0);
    assert.equal(coupon.click?.verdict, 'DISABLED', coupon.click?.message);
    assert.equal(coupon.click?.disabled?.reason, 'readonly');
    assert.equal(await page.locator('#coupon').inputValue(), 'WELCOME10');
    const email = await ctx.tc.type('a@example.com', {
      target: at(await ctx.rw.centre(page.locator('#email'))),
    });
    assert.equal(email.typed, 13);
    assert.equal(await page.locator('#email').inputValue(), 'a@example.com');
  });
});

describe('every press names its effect: navigated, opened, changed or none', () => {
  test('a checkbox, a details summary, a Bootstrap dropdown, a link, plain text', async () => {
    let { run, page } = await ctx.rw.open('checkout');
    let shot = await ctx.tc.screenshot();
    const box = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#remember')));
    assert.equal(box.verdict, 'OK', box.message);
    assert.deepEqual(box.effect, { kind: 'changed', what: ['checkbox "Remember me" now checked'] });
    assert.match(box.message, /It changed the page: checkbox "Remember me" now checked\./);
    assert.equal(await page.locator('#remember').isChecked(), true);

    const summary = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#summary')));
    assert.equal(summary.effect?.kind, 'changed', summary.message);
    assert.match(JSON.stringify(summary.effect), /now open/);

    shot = await ctx.tc.screenshot();
    const menu = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#payment')));
    assert.deepEqual(menu.effect, { kind: 'opened', what: 'list', name: 'Payment methods' }, menu.message);
    assert.match(menu.message, /It opened list "Payment methods"\./);

    ({ run, page } = await ctx.rw.open('checkout'));
    shot = await ctx.tc.screenshot();
    const text = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#blurb')));
    assert.equal(text.verdict, 'OK', text.message);
    assert.equal(text.effect?.kind, 'none', text.message);
    assert.match(
      text.message,
      /Nothing on the page changed in the first \d+ ms after it \(later changes are not watched\)\./,
    );

    const link = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#terms')));
    assert.equal(link.effect?.kind, 'navigated', link.message);
    assert.match(String((link.effect as { url?: string }).url), /do=terms/);
    assert.deepEqual(
      (await ctx.srv.waitForActions(1, { run })).map((a) => a.do),
      ['terms'],
    );
  });
});

describe('a row that lives is not a press effect', () => {
  test('a duration that ticked before the press and ticks again right after it: the click on its row changed nothing', async () => {
    const { page } = await ctx.rw.open('jobs');
    const shot = await ctx.tc.screenshot();
    // Row 0's duration ticks without saying so (no role=timer); make one tick land inside the press's window.
    await page.evaluate(() => {
      const row = document.querySelectorAll('.job')[0] as HTMLElement;
      const dur = row.querySelector('.dur') as HTMLElement;
      row.addEventListener(
        'pointerdown',
        () => {
          dur.textContent = `${dur.textContent}·`;
        },
        { capture: true },
      );
    });
    const at = await ctx.rw.centre(page.locator('.job').nth(0).locator('.name'));
    const r = await ctx.rw.click(shot, at);
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.effect?.kind, 'none', JSON.stringify(r.effect));
  });
});
