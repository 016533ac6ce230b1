// What a press did, as trueclick says it (`effect`), against what the page did, on real libraries' controls
// that do not navigate: a Bootstrap modal and toast closed by their own buttons, the browser's <dialog>
// closed by its Cancel, a Shoelace button that changes nothing but its own shadow tree, and a native select,
// whose option list the browser draws outside the DOM. Truth: the page's own state after the click.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Effect } from '../../src/actions/check/verdicts.js';
import { cmd, corpusForFile } from './harness.js';

const ctx = corpusForFile();

const said = (e: Effect | undefined) => JSON.stringify(e);
const hidden = (e: Effect | undefined) =>
  e?.kind === 'changed' ? e.what.filter((w) => / hidden$/.test(w)) : [];

describe('effects of presses that open or close things in place', () => {
  test('a Bootstrap modal closed by its Cancel, and a toast by its ✕: each is said hidden', async () => {
    const { page } = await ctx.rw.open('overlays');
    await cmd(page, 'showModal');
    let shot = await ctx.tc.screenshot();
    const cancel = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#modal-cancel')));
    assert.equal(cancel.verdict, 'OK', cancel.message);
    await page.locator('#confirm').waitFor({ state: 'hidden' });
    assert.equal(hidden(cancel.effect).length, 1, said(cancel.effect));
    assert.doesNotMatch(cancel.message, /Nothing on the page changed/);

    await cmd(page, 'showToast');
    shot = await ctx.tc.screenshot();
    const close = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('.toast .btn-close')));
    assert.equal(close.verdict, 'OK', close.message);
    await page.locator('.toast').waitFor({ state: 'hidden' });
    assert.equal(hidden(close.effect).length, 1, said(close.effect));
  });

  test("the browser's <dialog> closed by its Cancel (command=close) is said hidden", async () => {
    const { page } = await ctx.rw.open('popover');
    let shot = await ctx.tc.screenshot();
    const open = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#open-settings')));
    assert.equal(open.verdict, 'OK', open.message);
    assert.equal(await page.locator('#settings').evaluate((d) => (d as HTMLDialogElement).open), true);
    shot = await ctx.tc.screenshot();
    const cancel = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#settings-cancel')));
    assert.equal(cancel.verdict, 'OK', cancel.message);
    assert.equal(await page.locator('#settings').evaluate((d) => (d as HTMLDialogElement).open), false);
    assert.equal(hidden(cancel.effect).length, 1, said(cancel.effect));
  });

  test('a Shoelace button with nothing behind it: no part of its own shadow tree is said to have appeared', async () => {
    const { page } = await ctx.rw.open('components');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#new')));
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.effect?.kind, 'none', said(r.effect));
  });

  test('a Shoelace dropdown closed by its own trigger is said hidden (its popup lays out no box of its own)', async () => {
    const { page } = await ctx.rw.open('components');
    const dropdown = page.locator('#row-TCK-7737 sl-dropdown');
    const trigger = await ctx.rw.centre(dropdown.locator('sl-button'));
    let shot = await ctx.tc.screenshot();
    const open = await ctx.rw.click(shot, trigger);
    assert.equal(open.verdict, 'OK', open.message);
    await page.waitForFunction(
      () => (document.querySelector('#row-TCK-7737 sl-dropdown') as { open?: boolean }).open,
    );
    await new Promise((r) => setTimeout(r, 400));
    shot = await ctx.tc.screenshot();
    const close = await ctx.rw.click(shot, trigger);
    assert.equal(close.verdict, 'OK', close.message);
    assert.equal(await dropdown.evaluate((d) => (d as unknown as { open: boolean }).open), false);
    assert.equal(hidden(close.effect).length, 1, said(close.effect));
  });

  test('a Shoelace checkbox pressed is said now checked (its state lives on the host, its input in its shadow tree)', async () => {
    const { run, page } = await ctx.rw.open('components');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#row-TCK-7737 sl-checkbox.pick')));
    assert.equal(r.verdict, 'OK', r.message);
    const acts = await ctx.srv.waitForActions(1, { run });
    assert.deepEqual([acts[0]?.do, acts[0]?.id], ['check', 'TCK-7737']);
    assert.ok(
      r.effect?.kind === 'changed' && r.effect.what.some((w) => / now checked$/.test(w)),
      said(r.effect),
    );
  });

  test('an option pressed in a multiple select is said selected; the page selected it', async () => {
    const { page } = await ctx.rw.open('forms');
    const shot = await ctx.tc.screenshot();
    const urgent = page.locator('#tags option[value="urgent"]');
    const r = await ctx.rw.click(shot, await ctx.rw.centre(urgent));
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(await urgent.evaluate((o) => (o as HTMLOptionElement).selected), true);
    assert.ok(
      r.effect?.kind === 'changed' && r.effect.what.includes('option "Urgent" now selected'),
      said(r.effect),
    );
  });

  test('a text field pressed is said focused, where the keys go next (Bootstrap checkout form)', async () => {
    const { page } = await ctx.rw.open('checkout');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#email')));
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'email');
    assert.ok(
      r.effect?.kind === 'changed' && r.effect.what.some((w) => / now focused$/.test(w)),
      said(r.effect),
    );
    // A read-only field takes the focus too, but nothing typed goes in: not said as a place to type.
    const shot2 = await ctx.tc.screenshot();
    const coupon = await ctx.rw.click(shot2, await ctx.rw.centre(page.locator('#coupon')));
    assert.equal(coupon.verdict, 'OK', coupon.message);
    assert.doesNotMatch(said(coupon.effect), /focused/);
  });

  test("a native select's press opens the option list the browser draws; the answer says so", async () => {
    const { page } = await ctx.rw.open('forms');
    const shot = await ctx.tc.screenshot();
    const r = await ctx.rw.click(shot, await ctx.rw.centre(page.locator('#status')));
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(r.effect?.kind, 'opened', said(r.effect));
    assert.match(r.message, /option list/);
    await page.keyboard.press('Escape');
  });
});
