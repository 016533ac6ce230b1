// imageSize reads headers only. Real files come from sharp (allowed in tests); edge cases are built by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { imageSize } from '../../src/geometry/index.js';
import { assertGeometryError } from './helpers.js';

async function encode(
  format: 'png' | 'jpeg' | 'jpeg-progressive' | 'webp-lossy' | 'webp-lossless' | 'webp-alpha',
) {
  const channels = format === 'webp-alpha' || format === 'png' ? 4 : 3;
  const img = sharp({
    create: { width: 1282, height: 803, channels, background: { r: 200, g: 30, b: 30, alpha: 0.5 } },
  });
  switch (format) {
    case 'png':
      return img.png().toBuffer();
    case 'jpeg':
      return img.jpeg().withMetadata().toBuffer();
    case 'jpeg-progressive':
      return img.jpeg({ progressive: true }).toBuffer();
    case 'webp-lossy':
      return img.webp({ quality: 50 }).toBuffer();
    case 'webp-lossless':
      return img.webp({ lossless: true }).toBuffer();
    case 'webp-alpha':
      return img.webp({ quality: 50, alphaQuality: 50 }).toBuffer();
  }
}

describe('imageSize on real files', () => {
  const cases = [
    ['png', 'png', 'IHDR'],
    ['jpeg', 'jpeg', 'Exif/JFIF before SOF0'],
    ['jpeg-progressive', 'jpeg', 'SOF2'],
    ['webp-lossy', 'webp', 'VP8 '],
    ['webp-lossless', 'webp', 'VP8L'],
    ['webp-alpha', 'webp', 'VP8X'],
  ] as const;
  for (const [kind, format, chunk] of cases) {
    it(`${kind} (${chunk}) -> 1282x803`, async () => {
      const bytes = await encode(kind);
      if (kind.startsWith('webp')) assert.equal(bytes.subarray(12, 16).toString('latin1'), chunk);
      assert.deepEqual(imageSize(bytes), { width: 1282, height: 803, format });
      // Only the header is needed: the first 64 bytes of a PNG or WebP, the segments up to SOF of a JPEG.
      if (format !== 'jpeg')
        assert.deepEqual(imageSize(bytes.subarray(0, 64)), { width: 1282, height: 803, format });
    });
  }
});

describe('imageSize on hand-built headers', () => {
  it('a PNG header alone', () => {
    const b = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
    b.writeUInt32BE(13, 8);
    b.write('IHDR', 12, 'latin1');
    b.writeUInt32BE(5000, 16);
    b.writeUInt32BE(3, 20);
    assert.deepEqual(imageSize(new Uint8Array(b)), { width: 5000, height: 3, format: 'png' });
  });
  it('a JPEG with fill bytes and an APP segment before SOF0', () => {
    const b = Uint8Array.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03,
      0x20,
    ]);
    assert.deepEqual(imageSize(b), { width: 800, height: 600, format: 'jpeg' });
  });
  it('a VP8L header at the 14-bit maximum', () => {
    const b = Buffer.alloc(25);
    b.write('RIFF', 0, 'latin1');
    b.write('WEBPVP8L', 8, 'latin1');
    b[20] = 0x2f;
    b.writeUInt32LE(0x3fff | (0x3fff << 14), 21);
    assert.deepEqual(imageSize(b), { width: 16384, height: 16384, format: 'webp' });
  });
  it('a VP8X header with a 24-bit canvas', () => {
    const b = Buffer.alloc(30);
    b.write('RIFF', 0, 'latin1');
    b.write('WEBPVP8X', 8, 'latin1');
    b.writeUIntLE(20000 - 1, 24, 3);
    b.writeUIntLE(30 - 1, 27, 3);
    assert.deepEqual(imageSize(b), { width: 20000, height: 30, format: 'webp' });
  });
});

describe('imageSize refusals', () => {
  it('unknown format', () =>
    assertGeometryError(
      () => imageSize(Buffer.from('GIF89a......')),
      'IMAGE_UNKNOWN_FORMAT',
      'PNG, JPEG or WebP',
    ));
  it('empty input', () =>
    assertGeometryError(() => imageSize(new Uint8Array()), 'IMAGE_UNKNOWN_FORMAT', 'Uint8Array'));
  it('truncated PNG', async () => {
    const png = await encode('png');
    assertGeometryError(() => imageSize(png.subarray(0, 20)), 'IMAGE_TRUNCATED', 'whole image');
    assertGeometryError(() => imageSize(png.subarray(0, 4)), 'IMAGE_TRUNCATED', 'whole image');
  });
  it('truncated JPEG', async () => {
    const jpeg = await encode('jpeg');
    assertGeometryError(() => imageSize(jpeg.subarray(0, 30)), 'IMAGE_TRUNCATED', 'whole image');
  });
  it('truncated WebP', async () => {
    const webp = await encode('webp-lossy');
    assertGeometryError(() => imageSize(webp.subarray(0, 26)), 'IMAGE_TRUNCATED', 'whole image');
  });
  it('a JPEG that reaches image data without a frame header', () =>
    assertGeometryError(
      () => imageSize(Uint8Array.from([0xff, 0xd8, 0xff, 0xda, 0, 2])),
      'IMAGE_BAD_HEADER',
      'unmodified',
    ));
  it('a PNG whose first chunk is not IHDR', () => {
    const b = Buffer.alloc(24);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
    b.write('IDAT', 12, 'latin1');
    assertGeometryError(() => imageSize(b), 'IMAGE_BAD_HEADER', 'unmodified');
  });
  it('a zero-sized image', () => {
    const b = Buffer.alloc(30);
    b.write('RIFF', 0, 'latin1');
    b.write('WEBPVP8 ', 8, 'latin1');
    b[23] = 0x9d;
    b[24] = 0x01;
    b[25] = 0x2a;
    assertGeometryError(() => imageSize(b), 'IMAGE_BAD_HEADER', 'unmodified');
  });
});
