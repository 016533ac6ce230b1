import { spawn, spawnSync } from 'node:child_process';
import sharp from 'sharp';

// Text read off pixels, for targets whose DOM says nothing (a canvas, a video, a remote desktop). The engine is
// Debian's tesseract-ocr with its English data (installed by scripts/ensure.sh): a process per read, so a
// missing or broken engine costs one failed read, never the session.

/** One recognised word, its box in the pixels of the image that was read. */
export interface OcrWord {
  text: string;
  /** Tesseract's confidence, 0–100. */
  conf: number;
  box: { x: number; y: number; width: number; height: number };
  /** Line key (block.paragraph.line): words of one line share it. */
  line: string;
}

export interface OcrResult {
  /** The words of confident reads joined by single spaces, lines by " / ". */
  text: string;
  words: OcrWord[];
}

/** Below this tesseract confidence a "word" is mostly texture (an icon, a bar's edge), not text. */
const MIN_CONF = 40;

/** Glyphs smaller than this (px) read poorly: small crops are enlarged first. */
const MIN_TEXT_PX = 48;

let engine: { ok: true; version: string } | { ok: false; why: string } | undefined;

/** Whether the OCR engine runs here, and which one: probed once. */
export function ocrEngine(): { ok: true; version: string } | { ok: false; why: string } {
  if (engine) return engine;
  const bin = process.env.TRUECLICK_TESSERACT ?? 'tesseract';
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 5000 });
  const first = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]?.trim() ?? '';
  if (r.error || r.status !== 0 || !/^tesseract/i.test(first)) {
    engine = {
      ok: false,
      why: `no OCR engine (${bin}: ${r.error ? (r.error as NodeJS.ErrnoException).code : `exit ${r.status}`}); install it with: sudo apt-get install -y tesseract-ocr tesseract-ocr-eng`,
    };
  } else {
    const langs = spawnSync(bin, ['--list-langs'], { encoding: 'utf8', timeout: 5000 });
    engine = /^eng$/m.test(`${langs.stdout}`)
      ? { ok: true, version: first }
      : {
          ok: false,
          why: `${first} has no English data; install it with: sudo apt-get install -y tesseract-ocr-eng`,
        };
  }
  return engine;
}

/**
 * The text in an image (PNG or any format sharp reads). `line` reads it as one line of text (a table row's
 * band); otherwise as a block. Boxes are in the given image's pixels.
 */
export async function readText(
  image: Buffer,
  opts: { line?: boolean; timeoutMs?: number } = {},
): Promise<OcrResult> {
  const [one] = await readTexts([image], opts);
  return one as OcrResult;
}

/** Space between stacked images, px: more than a line gap, so no line spans two of them. */
const STACK_GAP = 24;

/**
 * The text of several images in one engine run (each run pays for loading the model, ~0.1–0.5 s): they are
 * stacked one above the other and the words are given back to the image they lie in.
 */
export async function readTexts(
  images: Buffer[],
  opts: { line?: boolean; timeoutMs?: number } = {},
): Promise<OcrResult[]> {
  const e = ocrEngine();
  if (!e.ok) throw new Error(e.why);
  const metas = await Promise.all(images.map((i) => sharp(i).metadata()));
  const minH = Math.min(...metas.map((m) => m.height ?? 1));
  const factor = minH < MIN_TEXT_PX ? Math.min(4, Math.ceil(MIN_TEXT_PX / minH)) : 1;
  // Grey, enlarged and framed by a margin of the edge colour: tesseract finds text poorly at an image edge.
  const parts = await Promise.all(
    images.map((img, i) =>
      sharp(img)
        .greyscale()
        .resize({
          width: (metas[i]?.width ?? 1) * factor,
          height: (metas[i]?.height ?? 1) * factor,
          kernel: 'lanczos3',
        })
        .extend({ top: 12, bottom: 12, left: 12, right: 12, extendWith: 'copy' })
        .raw()
        .toBuffer({ resolveWithObject: true }),
    ),
  );
  const width = Math.max(...parts.map((p) => p.info.width));
  const tops: number[] = [];
  let height = 0;
  for (const p of parts) {
    tops.push(height);
    height += p.info.height + STACK_GAP;
  }
  const first = parts[0]?.data[0] ?? 255;
  const stacked = await sharp({
    create: { width, height, channels: 3, background: { r: first, g: first, b: first } },
  })
    .composite(
      parts.map((p, i) => ({
        input: p.data,
        raw: { width: p.info.width, height: p.info.height, channels: p.info.channels },
        top: tops[i] as number,
        left: 0,
      })),
    )
    .greyscale()
    .png({ compressionLevel: 1 })
    .toBuffer();
  // One image reads as a line (psm 7); a stack as a block of lines (psm 6).
  const psm = opts.line && images.length === 1 ? '7' : '6';
  const tsv = await run(stacked, psm, opts.timeoutMs ?? 5000);
  const all = parseTsv(tsv);
  return parts.map((p, i) => {
    const top = tops[i] as number;
    const words = all
      .filter((w) => {
        const mid = w.box.y + w.box.height / 2;
        return mid >= top && mid < top + p.info.height;
      })
      .map((w) => ({
        ...w,
        box: {
          x: (w.box.x - 12) / factor,
          y: (w.box.y - top - 12) / factor,
          width: w.box.width / factor,
          height: w.box.height / factor,
        },
      }));
    return { text: joinWords(words), words };
  });
}

function run(png: Buffer, psm: string, timeoutMs: number): Promise<string> {
  const bin = process.env.TRUECLICK_TESSERACT ?? 'tesseract';
  return new Promise((resolve, reject) => {
    // One thread: two reads run side by side (then and now) on a machine whose other cores run the browser.
    const p = spawn(bin, ['stdin', 'stdout', '--psm', psm, '-l', 'eng', 'tsv'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.stdout.on('data', (d: Buffer) => out.push(d));
    p.stderr.on('data', (d: Buffer) => err.push(d));
    p.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    p.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new Error(
            signal
              ? `OCR took over ${timeoutMs} ms`
              : `tesseract exit ${code}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 200)}`,
          ),
        );
    });
    p.stdin.on('error', () => {});
    p.stdin.end(png);
  });
}

/** Tesseract's TSV: level 5 rows are words. */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c[0] !== '5' || c.length < 12) continue;
    const text = (c[11] ?? '').trim();
    const conf = Number(c[10]);
    if (!text || !(conf >= MIN_CONF)) continue;
    words.push({
      text,
      conf,
      box: { x: Number(c[6]), y: Number(c[7]), width: Number(c[8]), height: Number(c[9]) },
      line: `${c[2]}.${c[3]}.${c[4]}`,
    });
  }
  return words;
}

function joinWords(words: OcrWord[]): string {
  const lines: string[] = [];
  let key = '';
  for (const w of words) {
    if (w.line !== key || lines.length === 0) {
      lines.push(w.text);
      key = w.line;
    } else lines[lines.length - 1] += ` ${w.text}`;
  }
  return lines.join(' / ');
}

/**
 * Text as compared: letters and digits. Case, spacing, punctuation and the symbols OCR reads off rules and
 * edges ("|", "=") do not count.
 */
export const comparable = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
