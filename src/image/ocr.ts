import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

// Text read off pixels, for targets whose DOM says nothing (a canvas, a video, a remote desktop). The engine is
// Debian's tesseract-ocr with its English data (installed by scripts/ensure.sh), one process kept running
// between reads (class Engine): a missing or broken engine costs one failed read, never the session.

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
 * The text in an image (PNG or any format sharp reads), read as a block of lines (psm 6): a band of one line
 * reads as that line, and every read is in the same mode, so a band reads alike whichever check read it.
 * Boxes are in the given image's pixels.
 */
export async function readText(image: Buffer, opts: { timeoutMs?: number } = {}): Promise<OcrResult> {
  const [one] = await readTexts([image], opts);
  return one as OcrResult;
}

/** Margin of the edge colour around each image read, px: tesseract finds text poorly at an image edge. */
const MARGIN = 12;

/**
 * The text of several images, each a page of one request to the resident engine. They are enlarged alike
 * (by what the smallest needs), so the same band then and now is read at the same size.
 */
export async function readTexts(images: Buffer[], opts: { timeoutMs?: number } = {}): Promise<OcrResult[]> {
  const e = ocrEngine();
  if (!e.ok) throw new Error(e.why);
  const metas = await Promise.all(images.map((i) => sharp(i).metadata()));
  const minH = Math.min(...metas.map((m) => m.height ?? 1));
  const factor = minH < MIN_TEXT_PX ? Math.min(4, Math.ceil(MIN_TEXT_PX / minH)) : 1;
  const pages = await Promise.all(
    images.map(async (img, i) => {
      const { data, info } = await sharp(img)
        .greyscale()
        .resize({
          width: (metas[i]?.width ?? 1) * factor,
          height: (metas[i]?.height ?? 1) * factor,
          kernel: 'lanczos3',
        })
        .extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, extendWith: 'copy' })
        .toColourspace('b-w')
        .raw()
        .toBuffer({ resolveWithObject: true });
      return pgm(info.width, info.height, data);
    }),
  );
  // Pages go in turn to the engines whose model is loaded (the first always), each share as one request:
  // then and now of a changed band are read side by side, one process each.
  const n = pages.length > 1 ? Math.min(pages.length, 1 + (spare()?.ready ? 1 : 0)) : 1;
  const read = await Promise.all(
    Array.from({ length: n }, (_, k) =>
      (k === 0 ? resident() : (spare() as Engine)).read(
        pages.filter((_, i) => i % n === k),
        opts.timeoutMs ?? 5000,
      ),
    ),
  );
  if (pages.length > 1) warmSpare();
  const tsvs = pages.map((_, i) => read[i % n]?.[Math.floor(i / n)] ?? '');
  return tsvs.map((tsv) => {
    const words = parseTsv(tsv).map((w) => ({
      ...w,
      box: {
        x: (w.box.x - MARGIN) / factor,
        y: (w.box.y - MARGIN) / factor,
        width: w.box.width / factor,
        height: w.box.height / factor,
      },
    }));
    return { text: joinWords(words), words };
  });
}

/** Grey pixels as a PGM file: what tesseract reads with no decoding to speak of. */
const pgm = (width: number, height: number, grey: Buffer) =>
  Buffer.concat([Buffer.from(`P5\n${width} ${height}\n255\n`), grey]);

/** How long an engine may take to load its model (~0.3 s of CPU; far more on a machine that is busy). */
const LOAD_MS = 60_000;

/** How long the engine is kept with nothing to read: a session clicking on a canvas now and then keeps it. */
const IDLE_MS = 120_000;

/**
 * Engines kept running: the first reads everything, the spare takes a share of reads of several pages once
 * its model is loaded. A changed band is read twice (as the frame showed it and as it is now): on one engine
 * the second read waited for the first (two bands 100 ms, against 55 ms side by side). The spare loads only
 * after the first has, so a click that warms them shares the CPU with one load at a time.
 */
let first: Engine | undefined;
let second: Engine | undefined;

/** The first engine, started on first need. */
function resident(): Engine {
  if (!first || first.ended) first = new Engine();
  return first;
}

/** The spare engine while it runs. */
function spare(): Engine | undefined {
  return second && !second.ended ? second : undefined;
}

/** Starts the spare once the first engine has loaded its model, unless it runs already. */
function warmSpare(): void {
  const one = resident();
  void one.loaded.then(() => {
    try {
      if (!spare() && !one.ended) second = new Engine();
    } catch {
      // no spare (a temporary folder that could not be made): the first engine reads alone
    }
  });
}

/**
 * Starts the engines now, in the background, where a read is likely soon (a click on a canvas): their model
 * then loads while the click is checked, not when a changed band waits for its text. No-op without an engine.
 */
export function warmOcr(): void {
  if (ocrEngine().ok) warmSpare();
}

/** Ends the engines (the next read starts another). */
export function closeOcr(): void {
  for (const e of [first, second]) e?.close(new Error('OCR engine closed'));
  first = undefined;
  second = undefined;
}

/**
 * The first engine's process id and how many reads it holds; how many engines run, how many have their model
 * loaded, and the requests each answered. Undefined when the first does not run (for tests).
 */
export function ocrEngineState():
  | { pid: number | undefined; reading: number; running: number; ready: number; answered: number[] }
  | undefined {
  if (!first || first.ended) return undefined;
  const up = [first, spare()].filter((e): e is Engine => e !== undefined);
  return {
    pid: first.pid,
    reading: first.reading,
    running: up.length,
    ready: up.filter((e) => e.ready).length,
    answered: up.map((e) => e.answered),
  };
}

interface Request {
  /** Its pages' numbers in the engine's output (from 1), and that of the mark page that ends it. */
  first: number;
  mark: number;
  files: string[];
  resolve: (tsvs: string[]) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * One tesseract kept running: `stream_filelist` makes it read image paths from its stdin, one a line, and
 * write each page's TSV as soon as it is read, so its model (~0.3 s of CPU) loads once, not per read. A
 * request is its images' files, then a 1×1 mark page: the mark's first row says the pages before it are
 * written whole. Requests are answered in order. A failure (a crash, a time limit) ends the process and fails
 * the reads it holds; the next read starts another. Its pipes and process are unref'd and it reads stdin, so
 * it never keeps Node running, and ends by itself when Node does.
 */
class Engine {
  ended = false;
  /** Its model is loaded: it answered the empty request it was started with. */
  ready = false;
  /** Requests answered, the empty one included. */
  answered = 0;
  readonly loaded: Promise<void>;
  readonly pid: number | undefined;
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly dir = mkdtempSync(join(tmpdir(), 'trueclick-ocr-'));
  private readonly mark: string;
  private pages = 0;
  private files = 0;
  private readonly queue: Request[] = [];
  /** TSV rows of the pages of the request at the head of the queue, by page number. */
  private rows = new Map<number, string[]>();
  private partial = '';
  private errTail = '';
  private idle: NodeJS.Timeout | undefined;

  constructor() {
    this.mark = join(this.dir, 'mark.pgm');
    writeFileSync(this.mark, pgm(1, 1, Buffer.from([255])));
    const bin = process.env.TRUECLICK_TESSERACT ?? 'tesseract';
    // One thread: reads run beside a browser on machines with few cores. 70 dpi is what tesseract assumes of
    // an image without a resolution; said, it does not warn of it on every page.
    const args = ['stdin', 'stdout', '-c', 'stream_filelist=1', '-c', 'user_defined_dpi=70'];
    this.proc = spawn(bin, [...args, '--psm', '6', '-l', 'eng', 'tsv'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.pid = this.proc.pid;
    this.proc.unref();
    for (const s of [this.proc.stdin, this.proc.stdout, this.proc.stderr]) (s as unknown as Socket).unref?.();
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d: string) => this.onData(d));
    this.proc.stderr.on('data', (d: Buffer) => {
      this.errTail = `${this.errTail}${d}`.slice(-400);
    });
    // A write to a process that ended fails here too; its exit (or spawn error) fails the reads it held.
    this.proc.stdin.on('error', () => {});
    this.proc.on('error', (e) => this.close(e));
    this.proc.on('exit', (code, signal) => {
      const err = this.errTail.trim().split('\n').slice(-2).join('; ').slice(0, 200);
      this.close(new Error(`tesseract ended (${signal ?? `exit ${code}`})${err ? `: ${err}` : ''}`));
    });
    this.armIdle();
    // An empty request (the mark page alone) is answered once the model is loaded.
    this.loaded = this.read([], LOAD_MS).then(
      () => {
        this.ready = true;
      },
      () => {},
    );
  }

  get reading(): number {
    return this.queue.length;
  }

  read(images: Buffer[], timeoutMs: number): Promise<string[]> {
    if (this.ended) return Promise.reject(new Error('OCR engine closed'));
    clearTimeout(this.idle);
    return new Promise((resolve, reject) => {
      const files = images.map((img) => {
        const f = join(this.dir, `${++this.files}.pgm`);
        writeFileSync(f, img);
        return f;
      });
      const first = this.pages + 1;
      this.pages += images.length + 1;
      // Past its limit a read cannot be taken back from tesseract: the process goes, with what it holds.
      const timer = setTimeout(() => this.close(new Error(`OCR took over ${timeoutMs} ms`)), timeoutMs);
      // The empty request at start is nobody's wait: it must not keep Node running while the model loads.
      if (images.length === 0) timer.unref();
      this.queue.push({ first, mark: this.pages, files, resolve, reject, timer });
      this.proc.stdin.write(`${[...files, this.mark].join('\n')}\n`);
    });
  }

  private onData(chunk: string): void {
    const lines = `${this.partial}${chunk}`.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) {
      const c = line.split('\t', 3);
      const page = Number(c[1]);
      const head = this.queue[0];
      if (!head || !(page >= head.first)) continue; // The header row, or nothing asked.
      if (page < head.mark) {
        const rows = this.rows.get(page) ?? [];
        rows.push(line);
        this.rows.set(page, rows);
      } else if (c[0] === '1' && page === head.mark) {
        this.queue.shift();
        clearTimeout(head.timer);
        const tsvs = head.files.map((_, i) => (this.rows.get(head.first + i) ?? []).join('\n'));
        this.rows = new Map();
        this.unlink(head.files);
        this.answered++;
        head.resolve(tsvs);
        if (this.queue.length === 0) this.armIdle();
      }
    }
  }

  private armIdle(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(new Error('OCR engine idle')), IDLE_MS);
    this.idle.unref();
  }

  close(why: Error): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idle);
    this.proc.kill('SIGKILL');
    for (const r of this.queue.splice(0)) {
      clearTimeout(r.timer);
      r.reject(why);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private unlink(files: string[]): void {
    for (const f of files) rmSync(f, { force: true });
  }
}

// The engine ends with the process, its files removed (it would end by itself when its stdin closes).
process.on('exit', () => closeOcr());

/** Tesseract's TSV: level 5 rows are words (the header row, if given, is not one). */
export function parseTsv(tsv: string): OcrWord[] {
  const words: OcrWord[] = [];
  for (const row of tsv.split('\n')) {
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
