import type { BrowserHandle, BrowserOptions } from '../../browser/plumbing/launch.js';
import type { TraceOptions } from '../../trace/trace.js';
import type { ApprovalRequest } from '../approval/request.js';
import type { ApprovePresses } from '../approval/rule.js';
import type { Mark } from '../verbs/marks.js';
import type { FrameInfo } from './frames.js';
import type { Effects } from './page-watch.js';

// What a TrueclickSession is made with and answers, apart from the class (session.ts) that acts.

/** How a TrueclickSession gets its browser and sizes its screenshots, beside the launch options. */
export interface SessionOptions extends BrowserOptions {
  /** Long edge of screenshots sent to the model; 0 = full device resolution. */
  maxImageEdge?: number;
  /** The folder browser_file_upload may take files from (default: the working directory). */
  uploadDir?: string;
  /**
   * Where the session's browser comes from, when not a browser of its own: e.g. a new isolated context on a
   * browser the HTTP server shares between its sessions.
   */
  browserSource?: () => Promise<BrowserHandle>;
  /** Trace every action to a session folder in trace.dir (as `serve --trace-dir`); `trueclick report` reads it. */
  trace?: TraceOptions;
  /**
   * Asks a person before a press the approval rule names (approval/rule.ts): resolve true to press, false to
   * press nothing (DECLINED). At the yes the whole check runs again against the frame.
   */
  approve?: (request: ApprovalRequest) => Promise<boolean>;
  /** Which presses `approve` is asked about: 'destructive' (the default) or 'all'. */
  approvePresses?: ApprovePresses;
  /** Presses whose control's name or text matches also ask. */
  approveWhen?: RegExp;
}

/**
 * A screenshot as handed to the model: the PNG (base64, with numbered marks drawn on when asked) and the
 * frame id that later clicks name, so their coordinates are read in the image the model saw.
 */
export interface Screenshot {
  /** What the answer says of the frame; `session.frame(id)` gives it with its snapshot, once read. */
  frame: FrameInfo;
  base64: string;
  mimeType: 'image/png';
  marks?: Mark[];
}

/** Every action's answer also says what it opened: a dialog, a tab it followed, a file chooser. */
export type WithEffects<T> = T & Effects;

/** Playwright's names for keys, checked when pressed. */
export type KeyName = string;
