// Image size from header bytes alone: the frame must know the size of the image the client got without
// decoding it (and without pulling an image library into the geometry layer).

import { GeometryError } from './errors.js';

/** The pixel size of a PNG, JPEG or WebP file as its header declares it (px of the image), and its format. */
export interface ImageSize {
  width: number;
  height: number;
  format: 'png' | 'jpeg' | 'webp';
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function ascii(b: Uint8Array, at: number, length: number): string {
  let s = '';
  for (let i = at; i < at + length && i < b.length; i++) s += String.fromCharCode(b[i] ?? 0);
  return s;
}

function be16(b: Uint8Array, at: number): number {
  return ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
}

function be32(b: Uint8Array, at: number): number {
  return (
    (((b[at] ?? 0) << 24) >>> 0) + (((b[at + 1] ?? 0) << 16) | ((b[at + 2] ?? 0) << 8) | (b[at + 3] ?? 0))
  );
}

function le16(b: Uint8Array, at: number): number {
  return (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8);
}

function le24(b: Uint8Array, at: number): number {
  return le16(b, at) | ((b[at + 2] ?? 0) << 16);
}

function truncated(format: string, need: number, got: number): GeometryError {
  return new GeometryError(
    'IMAGE_TRUNCATED',
    `The ${format} header is cut short (${got} bytes, its size needs ${need}).`,
    'Pass the whole image file, or at least its first few hundred bytes.',
  );
}

function badHeader(format: string, why: string): GeometryError {
  return new GeometryError(
    'IMAGE_BAD_HEADER',
    `The ${format} header is not valid: ${why}.`,
    'Pass an unmodified PNG, JPEG or WebP file.',
  );
}

function sized(width: number, height: number, format: ImageSize['format']): ImageSize {
  if (width <= 0 || height <= 0) throw badHeader(format, `it declares a ${width} x ${height} image`);
  return { width, height, format };
}

function png(b: Uint8Array): ImageSize {
  if (b.length < 24) throw truncated('PNG', 24, b.length);
  if (ascii(b, 12, 4) !== 'IHDR') throw badHeader('PNG', 'the first chunk is not IHDR');
  return sized(be32(b, 16), be32(b, 20), 'png');
}

// SOFn markers carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(b: Uint8Array): ImageSize {
  let pos = 2;
  for (;;) {
    if (pos >= b.length) throw truncated('JPEG', pos + 1, b.length);
    if (b[pos] !== 0xff) throw badHeader('JPEG', `expected a marker at byte ${pos}`);
    while (b[pos] === 0xff) pos++;
    if (pos >= b.length) throw truncated('JPEG', pos + 1, b.length);
    const marker = b[pos] ?? 0;
    pos++;
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) continue;
    if (marker === 0xd9 || marker === 0xda) throw badHeader('JPEG', 'no frame header before the image data');
    if (pos + 2 > b.length) throw truncated('JPEG', pos + 2, b.length);
    const length = be16(b, pos);
    if (length < 2) throw badHeader('JPEG', `segment length ${length} at byte ${pos}`);
    if (isStartOfFrame(marker)) {
      if (pos + 7 > b.length) throw truncated('JPEG', pos + 7, b.length);
      return sized(be16(b, pos + 5), be16(b, pos + 3), 'jpeg');
    }
    pos += length;
  }
}

function webp(b: Uint8Array): ImageSize {
  if (b.length < 16) throw truncated('WebP', 16, b.length);
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    if (b.length < 30) throw truncated('WebP', 30, b.length);
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) throw badHeader('WebP', 'VP8 start code missing');
    return sized(le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff, 'webp');
  }
  if (chunk === 'VP8L') {
    if (b.length < 25) throw truncated('WebP', 25, b.length);
    if (b[20] !== 0x2f) throw badHeader('WebP', 'VP8L signature missing');
    const bits = le16(b, 21) | ((b[23] ?? 0) << 16) | ((b[24] ?? 0) << 24);
    return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 'webp');
  }
  if (chunk === 'VP8X') {
    if (b.length < 30) throw truncated('WebP', 30, b.length);
    return sized(le24(b, 24) + 1, le24(b, 27) + 1, 'webp');
  }
  throw badHeader('WebP', `unknown first chunk ${JSON.stringify(chunk)}`);
}

function startsWith(b: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.every((v, i) => i >= b.length || b[i] === v);
}

/** Width, height and format from the first bytes of a PNG, JPEG or WebP file. No decoding. */
export function imageSize(bytes: Uint8Array): ImageSize {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) {
    throw new GeometryError(
      'IMAGE_UNKNOWN_FORMAT',
      'No image bytes were given.',
      'Pass the bytes of a PNG, JPEG or WebP file as a Uint8Array or Buffer.',
    );
  }
  // A prefix of a known signature is a cut-short file, not an unknown format.
  if (startsWith(bytes, PNG_SIGNATURE)) {
    if (bytes.length < 8) throw truncated('PNG', 8, bytes.length);
    return png(bytes);
  }
  if (bytes[0] === 0xff && (bytes.length < 2 || bytes[1] === 0xd8)) {
    if (bytes.length < 2) throw truncated('JPEG', 2, bytes.length);
    return jpeg(bytes);
  }
  const riff = [0x52, 0x49, 0x46, 0x46];
  if (startsWith(bytes, riff) && (bytes.length < 12 || ascii(bytes, 8, 4) === 'WEBP')) {
    if (bytes.length < 12) throw truncated('WebP', 12, bytes.length);
    return webp(bytes);
  }
  throw new GeometryError(
    'IMAGE_UNKNOWN_FORMAT',
    `The bytes do not start like a PNG, JPEG or WebP file (first bytes ${[...bytes.subarray(0, 4)].map((v) => v.toString(16).padStart(2, '0')).join(' ')}).`,
    'Pass a PNG, JPEG or WebP image.',
  );
}
