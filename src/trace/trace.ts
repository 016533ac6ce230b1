import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a person debugging an agent needs of one call, written as it happens (one JSON line per call). */
export interface TraceRecord {
  seq: number;
  /** ms since the epoch when the call began. */
  t: number;
  ms: number;
  tool: string;
  args: Record<string, unknown>;
  verdict?: string;
  message?: string;
  error?: unknown;
  notice?: string;
  /** The frame this call made (a screenshot or zoom) or read its numbers off (an action). */
  frame?: string;
  /** Fields of the answer a report draws: where the point was, what it held then and now, what changed. */
  answer?: Record<string, unknown>;
  /** Frame images this call's record refers to that were dropped to keep the trace under its cap. */
  dropped?: string[];
  /** The W3C trace context the client sent with the call (`_meta.traceparent`), to join it to the caller's trace. */
  traceparent?: string;
}

export interface TraceOptions {
  /** Folder the session folders go in. */
  dir: string;
  /** Images beyond this many bytes in one session: the oldest are deleted first (default 200 MB). */
  maxBytes?: number;
  /** Values never written (tokens, passwords the agent was given): replaced by •••. */
  secrets?: string[];
}

const MASK = '•••';
/** The answer's fields a report needs; the rest (the whole report) stays in the MCP answer only. */
const KEPT = [
  'frame',
  'image',
  'css',
  'scroll',
  'devicePixelRatio',
  'url',
  'point',
  'imagePoint',
  'dispatched',
  'hitAtCapture',
  'hitNow',
  'landed',
  'expected',
  'expectedAt',
  'changes',
  'followed',
  'notFollowed',
  'diagnosis',
  'navigation',
  'dialog',
  'newTab',
  'fileChooser',
  'steps',
  'typed',
  'pixels',
  'approval',
] as const;

/**
 * A session's trace: DIR/<session>/trace.jsonl, one line appended per call as it ends (a crash or a kill
 * loses at most the call in flight), and DIR/<session>/frames/<id>.png, each frame image once.
 */
export class Trace {
  readonly folder: string;
  private seq = 0;
  private readonly images: Array<{ file: string; bytes: number }> = [];
  private imageBytes = 0;
  private readonly maxBytes: number;
  private readonly secrets: string[];

  constructor(opts: TraceOptions) {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    this.folder = join(opts.dir, `${stamp}-${randomBytes(3).toString('hex')}`);
    mkdirSync(join(this.folder, 'frames'), { recursive: true });
    this.maxBytes = opts.maxBytes ?? 200 * 1024 * 1024;
    this.secrets = (opts.secrets ?? []).filter((s) => s.length > 0);
  }

  /**
   * Records one call: its answer's fields (`answer`: an MCP structuredContent or a library result) and the
   * frame image it made, if any; `typedIntoPassword` says the text it typed went into a password field.
   */
  record(call: {
    tool: string;
    args: Record<string, unknown>;
    answer: Record<string, unknown>;
    /** The frame image this call made (base64 PNG), saved once under the frame's id. */
    image?: string;
    startedAt: number;
    typedIntoPassword: boolean;
    traceparent?: string;
    /** The viewport after a refusal: the report shows it beside the frame. */
    now?: {
      base64: string;
      image: { width: number; height: number };
      css: { width: number; height: number };
    };
    /** What a person was shown of the press they were asked to approve (PNG, base64). */
    approvalCrop?: string;
  }): TraceRecord {
    const s = call.answer;
    const frame = s.frame as Record<string, unknown> | string | null | undefined;
    const frameId = typeof frame === 'string' ? frame : (frame?.id as string | undefined);
    if (frame && typeof frame === 'object' && frameId && call.image)
      this.saveBytes(frameId, Buffer.from(call.image, 'base64'));
    const answer: Record<string, unknown> = {};
    for (const k of KEPT) if (s[k] !== undefined && s[k] !== null) answer[k] = s[k];
    if (call.now) {
      const id = `now-${this.seq + 1}`;
      this.saveBytes(id, Buffer.from(call.now.base64, 'base64'));
      answer.now = { id, image: call.now.image, css: call.now.css };
    }
    if (call.approvalCrop) {
      const id = `asked-${this.seq + 1}`;
      this.saveBytes(id, Buffer.from(call.approvalCrop, 'base64'));
      answer.approvalCrop = id;
    }
    // What went into a password field is a secret of this call wherever it shows (the answer echoes it).
    const typed = call.typedIntoPassword ? typedTexts(call.args) : [];
    const rec: TraceRecord = {
      seq: ++this.seq,
      t: call.startedAt,
      ms: Date.now() - call.startedAt,
      tool: call.tool,
      args: this.cleanArgs(call.tool, call.args, call.typedIntoPassword, typed),
      ...(typeof s.verdict === 'string' ? { verdict: s.verdict } : {}),
      ...(typeof s.message === 'string' ? { message: this.mask(s.message, typed) } : {}),
      ...(s.error ? { error: s.error } : {}),
      ...(typeof s.notice === 'string' ? { notice: s.notice } : {}),
      ...(frameId ? { frame: frameId } : {}),
      ...(call.traceparent ? { traceparent: call.traceparent } : {}),
      ...(Object.keys(answer).length ? { answer: JSON.parse(this.mask(JSON.stringify(answer), typed)) } : {}),
    };
    const dropped = this.keepUnderCap();
    if (dropped.length) rec.dropped = dropped;
    appendFileSync(join(this.folder, 'trace.jsonl'), `${JSON.stringify(rec)}\n`);
    return rec;
  }

  /** Text typed into a password field, and every secret anywhere, never reach the disk. */
  private cleanArgs(
    tool: string,
    args: Record<string, unknown>,
    password: boolean,
    typed: string[],
  ): Record<string, unknown> {
    const out = JSON.parse(this.mask(JSON.stringify(args), typed)) as Record<string, unknown>;
    if (password && tool === 'browser_type' && typeof out.text === 'string') out.text = MASK;
    if (password && tool === 'browser_act') out.action = MASK;
    if (tool === 'browser_handle_dialog' && typeof out.prompt_text === 'string' && password)
      out.prompt_text = MASK;
    return out;
  }

  private mask(text: string, more: string[] = []): string {
    let t = text;
    for (const secret of [...this.secrets, ...more])
      if (secret) t = t.split(JSON.stringify(secret).slice(1, -1)).join(MASK);
    return t;
  }

  private saveBytes(id: string, bytes: Buffer): void {
    if (!/^[\w-]{1,32}$/.test(id)) return;
    const file = join(this.folder, 'frames', `${id}.png`);
    writeFileSync(file, bytes);
    this.images.push({ file, bytes: bytes.length });
    this.imageBytes += bytes.length;
  }

  /** Oldest images go first when the session's images pass the cap; their names are recorded. */
  private keepUnderCap(): string[] {
    const dropped: string[] = [];
    while (this.imageBytes > this.maxBytes && this.images.length > 1) {
      const old = this.images.shift() as { file: string; bytes: number };
      this.imageBytes -= old.bytes;
      try {
        unlinkSync(old.file);
      } catch {}
      dropped.push(old.file.replace(/^.*[\\/]/, ''));
    }
    return dropped;
  }
}

/** The session folders of a trace folder, newest last (a report of DIR takes the newest). */
export function sessionsIn(dir: string): string[] {
  try {
    statSync(join(dir, 'trace.jsonl'));
    return [dir];
  } catch {}
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => join(dir, e.name))
    .filter((d) => {
      try {
        return statSync(join(d, 'trace.jsonl')).isFile();
      } catch {
        return false;
      }
    })
    .sort();
}

/** Tools whose text could go into a password field. */
const TYPING = new Set(['browser_type', 'browser_act', 'browser_handle_dialog']);

/**
 * Whether what a call typed may have gone into a password field: after typing the focus is where the text
 * went, so the page is asked; a page that moved on (a submit, a navigation) cannot say, so it counts as yes.
 */
export async function typedIntoPassword(
  tool: string,
  answer: { navigation?: unknown; submitted?: unknown },
  focusIsPassword: () => Promise<boolean>,
): Promise<boolean> {
  if (!TYPING.has(tool)) return false;
  return Boolean(answer.navigation || answer.submitted) || (await focusIsPassword().catch(() => true));
}

/** Texts a call types: browser_type's text, a dialog's prompt answer, the text of a model's type actions. */
function typedTexts(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key = '') => {
    if (typeof v === 'string') {
      if (/^(text|prompt_text)$/.test(key) && v.length > 0) out.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(args);
  return out;
}
