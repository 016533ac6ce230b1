import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import type { ApprovalRequest } from '../../src/index.js';
import { librarySession } from '../helpers/library.js';

// The approval gate through the library's `approve` callback, on the React list of the real-web corpus:
// "Delete" submits a POST form, "Archive" is a link, a title opens its ticket (a GET by script). What was
// pressed is read from the server's own log of /rw/act, never from trueclick's answer.

let answer: (r: ApprovalRequest) => Promise<boolean> = async () => true;
const asked: ApprovalRequest[] = [];
const ctx = librarySession({
  deviceScaleFactor: 2,
  approve: (r) => {
    asked.push(r);
    return answer(r);
  },
});

/** A screenshot of /rw/list and the image point of `selector` in the row of `ticket`. */
async function aim(run: string, ticket: string, selector: string) {
  await ctx.session.navigate(ctx.srv.url('/rw/list', { run }));
  const page = (await ctx.session.driver()).page;
  const shot = await ctx.session.screenshot();
  const box = await page.locator(`.ticket-row:has-text("${ticket}") ${selector}`).first().boundingBox();
  assert.ok(box, selector);
  const k = shot.frame.geometry.image.width / shot.frame.geometry.css.width;
  const at = { x: (box.x + box.width / 2) * k, y: (box.y + box.height / 2) * k };
  return { page, frame: shot.frame.id, at };
}

const resort = (page: Awaited<ReturnType<typeof aim>>['page']) =>
  page.evaluate(() => (window as unknown as { rw: { resort(): void } }).rw.resort());

describe('a press the person must approve', () => {
  test('yes on a still page: the person saw the control, its row and the crop; the delete reaches the server once', async () => {
    asked.length = 0;
    answer = async () => true;
    const { frame, at } = await aim('ap-yes', 'TCK-7741', 'button.delete');
    const r = await ctx.session.click({ frame, ...at });
    assert.equal(r.verdict, 'OK', r.message);
    const [req] = asked;
    assert.ok(req && asked.length === 1);
    assert.match(req.sentence, /^Click "Delete" in record ".*TCK-7741.*" \(frame f\d+, \d+ (ms|s) old\)\.$/);
    assert.match(req.reason, /says delete/);
    assert.ok(req.crop, 'the frame around the point');
    const crop = await sharp(Buffer.from(req.crop.base64, 'base64')).metadata();
    assert.equal(crop.format, 'png');
    assert.equal(crop.width, req.crop.width);
    assert.ok(r.approval?.approved && r.approval.route === 'callback');
    assert.ok((r.approval?.yesToPressMs ?? -1) >= 0, 'the time from the yes to the press');
    const done = await ctx.srv.waitForActions(1, { run: 'ap-yes' });
    assert.deepEqual(
      done.map((a) => [a.method, a.do, a.id]),
      [['POST', 'delete', 'TCK-7741']],
    );
  });

  test('yes after the rows re-sorted while the person looked: nothing is deleted, and the answer says why', async () => {
    const { page, frame, at } = await aim('ap-moved', 'TCK-7741', 'button.delete');
    answer = async () => {
      await resort(page);
      return true;
    };
    const r = await ctx.session.click({ frame, ...at });
    assert.equal(r.verdict, 'STALE_TARGET', r.message);
    assert.match(
      r.message,
      /^Approved \d+ (ms|s) after frame f\d+, but the page is not what the person was shown/,
    );
    assert.equal(r.dispatched, null);
    assert.equal(r.approval?.approved, true);
    await new Promise((res) => setTimeout(res, 500));
    assert.deepEqual(ctx.srv.actions({ run: 'ap-moved' }), [], 'no ticket was deleted');
  });

  test('no: DECLINED, nothing pressed', async () => {
    answer = async () => false;
    const { frame, at } = await aim('ap-no', 'TCK-7742', 'a.archive');
    const r = await ctx.session.click({ frame, ...at });
    assert.equal(r.verdict, 'DECLINED', r.message);
    assert.match(r.message, /The person declined .*"Archive".*Nothing was pressed/);
    assert.equal(r.dispatched, null);
    await new Promise((res) => setTimeout(res, 500));
    assert.deepEqual(ctx.srv.actions({ run: 'ap-no' }), []);
  });

  test('a press that is not destructive is not put to the person', async () => {
    asked.length = 0;
    answer = async () => false;
    const { frame, at } = await aim('ap-open', 'TCK-7743', '.title');
    const r = await ctx.session.click({ frame, ...at });
    assert.equal(r.verdict, 'OK', r.message);
    assert.equal(asked.length, 0);
    assert.equal((await ctx.srv.waitForActions(1, { run: 'ap-open' }))[0]?.do, 'open');
  });
});
