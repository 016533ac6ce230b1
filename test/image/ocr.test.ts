// The OCR engine as the pixel guard uses it: tesseracts kept running between reads (the model loads once each),
// that a failure, a time limit or a kill costs one read and never the next, and that never keeps the process
// that started it from exiting.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { closeOcr, comparable, ocrEngine, ocrEngineState, readText, readTexts } from '../../src/image/ocr.js';

/** A 480×40 row of text as a canvas app would draw it, as PNG. */
function row(text: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="40">
    <rect width="480" height="40" fill="#fff"/>
    <text x="12" y="26" font-family="DejaVu Sans" font-size="15" fill="#1d2330">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A limit for reads that are not about it: a cold engine loads its model first, slowly on a loaded machine. */
const SLOW = { timeoutMs: 60_000 };

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (alive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('the resident OCR engine', { skip: !ocrEngine().ok && 'no OCR engine' }, () => {
  after(() => closeOcr());

  test('reads after the first are served by the same process, and read alike whatever came between', async () => {
    closeOcr();
    assert.equal(ocrEngineState()?.pid, undefined, 'nothing runs before a read');
    const a = await row('TCK-7739 Password reset');
    const first = await readText(a, SLOW);
    const pid = ocrEngineState()?.pid;
    assert.ok(pid, 'a read started the engine');
    const [b, again] = await readTexts([await row('TCK-7742 Calendar invites'), a], SLOW);
    assert.equal(ocrEngineState()?.pid, pid);
    assert.equal(comparable(first.text), comparable('TCK-7739 Password reset'));
    assert.equal(comparable(b?.text ?? ''), comparable('TCK-7742 Calendar invites'));
    assert.deepEqual(again, first, 'the same image reads the same, words and boxes');
  });

  test('a read of several pages starts a spare engine; once it is loaded they share the pages, each text in its place', async () => {
    closeOcr();
    const texts = ['TCK-7736 Printer', 'TCK-7737 VPN drops', 'TCK-7738 Invoice PDF', 'TCK-7739 Password'];
    const rows = await Promise.all(texts.map(row));
    await readTexts([rows[0] as Buffer], SLOW);
    assert.equal(ocrEngineState()?.running, 1, 'one page, one engine');
    const alone = await readTexts(rows, SLOW);
    const end = Date.now() + 30_000;
    while (ocrEngineState()?.ready !== 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    assert.equal(ocrEngineState()?.ready, 2, 'the spare loaded its model');
    const before = ocrEngineState()?.answered ?? [];
    const shared = await readTexts(rows, SLOW);
    assert.deepEqual(
      ocrEngineState()?.answered,
      before.map((n) => n + 1),
      'each engine answered one request of the read',
    );
    assert.deepEqual(
      shared.map((r) => comparable(r.text)),
      texts.map(comparable),
    );
    assert.deepEqual(shared, alone, 'each page reads the same on either engine, words and boxes');
  });

  test('reads asked at once are each given their own text', async () => {
    const texts = ['TCK-7736 Printer', 'TCK-7737 VPN drops', 'TCK-7738 Invoice PDF'];
    const reads = await Promise.all(texts.map(async (t) => readText(await row(t), SLOW)));
    assert.deepEqual(
      reads.map((r) => comparable(r.text)),
      texts.map(comparable),
    );
  });

  test('closed, it ends; the next read starts another', async () => {
    await readText(await row('TCK-7740 CRM'), SLOW);
    const pid = ocrEngineState()?.pid as number;
    closeOcr();
    assert.equal(ocrEngineState()?.pid, undefined);
    assert.ok(await gone(pid, 3000), 'the engine process ended');
    assert.equal(
      comparable((await readText(await row('TCK-7741 Export'), SLOW)).text),
      comparable('TCK-7741 Export'),
    );
    assert.notEqual(ocrEngineState()?.pid, pid);
  });

  test('killed between reads: the next read starts another', async () => {
    await readText(await row('TCK-7740 CRM'), SLOW);
    const pid = ocrEngineState()?.pid as number;
    process.kill(pid, 'SIGKILL');
    assert.ok(await gone(pid, 3000));
    assert.equal(
      comparable((await readText(await row('TCK-7743 Laptop'), SLOW)).text),
      comparable('TCK-7743 Laptop'),
    );
  });

  test('killed during a read: that read fails, the next one reads', async () => {
    const img = await row('TCK-7744 Printer');
    await readText(img, SLOW);
    const state = ocrEngineState();
    // A page of 60 lines: the engine is still on it when killed.
    const lines = Array.from(
      { length: 60 },
      (_, i) => `<text x="12" y="${30 + 24 * i}">TCK-${7700 + i} Printer on floor ${i} jams on duplex</text>`,
    );
    const page = await sharp(
      Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1500"><rect width="900" height="1500" fill="#fff"/><g font-family="DejaVu Sans" font-size="15">${lines.join('')}</g></svg>`,
      ),
    )
      .png()
      .toBuffer();
    const read = readText(page, SLOW);
    while (!ocrEngineState()?.reading) await new Promise((r) => setTimeout(r, 5));
    process.kill(state?.pid as number, 'SIGKILL');
    await assert.rejects(read, /tesseract ended \(SIGKILL\)/);
    assert.equal(comparable((await readText(img, SLOW)).text), comparable('TCK-7744 Printer'));
  });

  test('a read past its time limit fails, and the next one reads', async () => {
    const img = await row('TCK-7745 Wiki search');
    await assert.rejects(readText(img, { timeoutMs: 1 }), /OCR took over 1 ms/);
    assert.equal(comparable((await readText(img, SLOW)).text), comparable('TCK-7745 Wiki search'));
  });

  test('it never keeps the process that started it from exiting, and ends with it', async () => {
    const ocr = fileURLToPath(new URL('../../src/image/ocr.js', import.meta.url));
    const script = `
      import sharp from 'sharp';
      const { readText, ocrEngineState } = await import(${JSON.stringify(ocr)});
      const png = await sharp({ create: { width: 200, height: 40, channels: 3, background: '#fff' } }).png().toBuffer();
      await readText(png);
      console.log(ocrEngineState()?.pid);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    // A process kept open by the engine would never end by itself: it is killed after 15 s, and fails.
    const stuck = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(stuck);
    assert.equal(code, 0, 'it exited by itself');
    const pid = Number(out.trim());
    assert.ok(pid > 0, out);
    assert.ok(await gone(pid, 3000), 'the engine ended with the process');
  });
});
