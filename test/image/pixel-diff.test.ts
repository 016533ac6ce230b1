// The pixel comparison and OCR behind the pixel guard, on images drawn here with sharp (SVG text in DejaVu, the
// font the README's commands install): a changed digit counts, a caret, a hover tint and a re-rendered
// antialiased edge do not.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import sharp from 'sharp';
import { findWords } from '../../src/actions/pixels/pixel-expect.js';
import { comparable, ocrEngine, parseTsv, readText, readTexts } from '../../src/image/ocr.js';
import { diffGrey, type Grey, greyOf, lineBand, tonesAlike } from '../../src/image/pixel-diff.js';

interface Row {
  text: string;
  bg?: string;
  caretX?: number;
  x?: number;
}

/** A 480×40 table row as a canvas app would draw it, as PNG. */
function row(r: Row): Promise<Buffer> {
  const caret =
    r.caretX !== undefined ? `<rect x="${r.caretX}" y="10" width="1" height="20" fill="#000"/>` : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="40">
    <rect width="480" height="40" fill="${r.bg ?? '#ffffff'}"/>
    <text x="${r.x ?? 12}" y="26" font-family="DejaVu Sans" font-size="15" fill="#1d2330">${r.text}</text>${caret}
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const grey = async (r: Row): Promise<Grey> => greyOf(await row(r));

describe('diffGrey', () => {
  test('one changed digit in a row of text counts', async () => {
    const d = diffGrey(
      await grey({ text: 'TCK-7741 Printer jams' }),
      await grey({ text: 'TCK-7739 Printer jams' }),
    );
    assert.ok(d.changedPixels >= 6, JSON.stringify(d));
    assert.ok(d.box && d.box.x > 40 && d.box.x + d.box.width < 100, JSON.stringify(d.box));
  });

  test('a caret, a hover tint and the same text drawn again do not', async () => {
    const base = await grey({ text: 'TCK-7741 Printer jams' });
    assert.equal(diffGrey(base, await grey({ text: 'TCK-7741 Printer jams' })).changedPixels, 0);
    assert.equal(diffGrey(base, await grey({ text: 'TCK-7741 Printer jams', caretX: 300 })).changedPixels, 0);
    assert.equal(
      diffGrey(base, await grey({ text: 'TCK-7741 Printer jams', bg: '#eef3ff' })).changedPixels,
      0,
    );
  });

  test('text moved by a third of a pixel (antialiasing redone) does not count', async () => {
    const d = diffGrey(
      await grey({ text: 'TCK-7741 Printer jams' }),
      await grey({ text: 'TCK-7741 Printer jams', x: 12.33 }),
    );
    assert.equal(d.changedPixels, 0, JSON.stringify(d));
  });

  test('property: an image never differs from itself, and a caret drawn anywhere is never counted', async () => {
    const base = await grey({ text: 'TCK-7741 Printer jams' });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 479 }), async (x) => {
        assert.equal(diffGrey(base, base).changedPixels, 0);
        const d = diffGrey(base, await grey({ text: 'TCK-7741 Printer jams', caretX: x }));
        assert.equal(d.changedPixels, 0, `caret at ${x}: ${JSON.stringify(d)}`);
      }),
      { numRuns: 40 },
    );
  });

  test('images of different sizes are a caller error', async () => {
    const a = await grey({ text: 'a' });
    assert.throws(() => diffGrey(a, { ...a, width: a.width - 1 }), /480×40 vs 479×40/);
  });
});

describe('tonesAlike', () => {
  /** A 280×90 picture of one colour with a 20 px white bar at x, as a frame of a live preview. */
  const frame = (fill: number, barX: number): Grey => {
    const g: Grey = { data: new Uint8Array(280 * 90).fill(fill), width: 280, height: 90 };
    for (let y = 0; y < 90; y++)
      for (let x = Math.max(0, barX); x < Math.min(280, barX + 20); x++) g.data[y * 280 + x] = 255;
    return g;
  };
  test('the same picture with its bar elsewhere is alike; another colour is not; a small shift in level is', () => {
    assert.ok(tonesAlike(frame(111, 40), frame(111, 200)) > 0.95);
    assert.ok(tonesAlike(frame(111, 40), frame(59, 40)) < 0.2);
    assert.ok(tonesAlike(frame(111, 40), frame(116, 40)) > 0.6);
    assert.equal(tonesAlike(frame(111, 40), frame(111, 40)), 1);
  });
});

describe('comparable (what of OCR text is compared)', () => {
  test('letters and digits only: rules and edges read as symbols are not text', () => {
    assert.equal(comparable('='), '');
    assert.equal(comparable('| — ~'), '');
    assert.equal(comparable('| Archive |'), 'archive');
    assert.equal(comparable('TCK-7741  Printer, jams'), comparable('tck 7741 printer jams'));
    assert.notEqual(comparable('TCK-7741'), comparable('TCK-7742'));
  });
});

describe('lineBand', () => {
  test('finds the line of text at a row, and the nearest one from a gap; none in blank space', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120">
      <rect width="300" height="120" fill="#fff"/><rect x="0" y="59" width="300" height="1" fill="#ccc"/>
      <rect x="120" y="0" width="1" height="120" fill="#ccc"/>
      <text x="8" y="30" font-family="DejaVu Sans" font-size="14">TCK-7741</text>
      <text x="8" y="90" font-family="DejaVu Sans" font-size="14">TCK-7742</text></svg>`;
    const g = await greyOf(await sharp(Buffer.from(svg)).png().toBuffer());
    const first = lineBand(g, 25, 12, 64);
    assert.ok(first && first.top >= 15 && first.bottom <= 35, JSON.stringify(first));
    const fromGap = lineBand(g, 40, 12, 64);
    assert.deepEqual(fromGap, first, 'a point just below the text takes its line');
    assert.equal(lineBand(g, 59, 5, 64), null, 'a rule line and a column border are not content');
  });
});

describe('OCR (tesseract)', { skip: !ocrEngine().ok && 'no OCR engine' }, () => {
  test('reads a drawn row, with word boxes in the given image px', async () => {
    const r = await readText(await row({ text: 'TCK-7741 Printer jams' }));
    assert.equal(comparable(r.text), comparable('TCK-7741 Printer jams'));
    const box = findWords(r.words, 'tck-7741');
    assert.ok(box && box.x >= 8 && box.x < 20 && box.width > 50 && box.width < 90, JSON.stringify(box));
  });
});

describe('parseTsv and findWords', () => {
  const tsv = [
    'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
    '5\t1\t1\t1\t1\t1\t10\t5\t60\t14\t96.1\tTCK-7741',
    '5\t1\t1\t1\t1\t2\t80\t5\t50\t14\t95.0\tPrinter',
    '5\t1\t1\t1\t1\t3\t140\t5\t8\t14\t12.0\t~',
    '5\t1\t1\t1\t2\t1\t10\t40\t60\t14\t91.0\tTCK-7742',
  ].join('\n');
  test('keeps confident words with their lines; finds a phrase on one line only', () => {
    const words = parseTsv(tsv);
    assert.deepEqual(
      words.map((w) => `${w.line}:${w.text}`),
      ['1.1.1:TCK-7741', '1.1.1:Printer', '1.1.2:TCK-7742'],
    );
    assert.deepEqual(findWords(words, 'tck-7741 printer'), { x: 10, y: 5, width: 120, height: 14 });
    assert.deepEqual(findWords(words, 'tck-7742'), { x: 10, y: 40, width: 60, height: 14 });
    assert.equal(findWords(words, 'printer tck-7742'), null);
  });
});

describe('OCR of several images in one run', { skip: !ocrEngine().ok && 'no OCR engine' }, () => {
  test('each image gets back its own words, boxes in its own px', async () => {
    const [a, b] = await readTexts([
      await row({ text: 'TCK-7739 Password reset' }),
      await row({ text: 'TCK-7742 Calendar invites', x: 40 }),
    ]);
    assert.equal(comparable(a?.text ?? ''), comparable('TCK-7739 Password reset'));
    assert.equal(comparable(b?.text ?? ''), comparable('TCK-7742 Calendar invites'));
    const box = findWords(b?.words ?? [], 'tck-7742');
    assert.ok(box && box.x >= 36 && box.x < 48 && box.y >= 0 && box.y < 20, JSON.stringify(box));
  });
});
