import { Trace, type TraceOptions, typedIntoPassword } from '../../trace/trace.js';

/** The session's actions as the MCP tool of the same work names them, so both traces read alike. */
const TOOLS: Record<string, string> = {
  navigate: 'browser_navigate',
  back: 'browser_navigate',
  forward: 'browser_navigate',
  reload: 'browser_navigate',
  screenshot: 'browser_screenshot',
  zoom: 'browser_zoom',
  click: 'browser_click',
  point: 'browser_point',
  hover: 'browser_hover',
  drag: 'browser_drag',
  selectOption: 'browser_select_option',
  scroll: 'browser_scroll',
  type: 'browser_type',
  pressKey: 'browser_press_key',
  handleDialog: 'browser_handle_dialog',
  upload: 'browser_file_upload',
  tab: 'browser_tabs',
  waitFor: 'browser_wait_for',
};

/** A call's arguments under the MCP tool's names (what the report shows, and what masking looks for). */
function argsOf(method: string, a: unknown[]): Record<string, unknown> {
  const obj = (v: unknown) => (v && typeof v === 'object' && !(v instanceof AbortSignal) ? v : {});
  switch (method) {
    case 'navigate':
      return { url: a[0] };
    case 'back':
    case 'forward':
    case 'reload':
      return { go: method === 'back' || method === 'forward' ? method : 'reload' };
    case 'type':
      return { text: a[0], ...obj(a[1]) };
    case 'pressKey':
      return { key: a[0], ...obj(a[1]) };
    case 'handleDialog':
      return { accept: a[0], ...(a[1] !== undefined ? { prompt_text: a[1] } : {}) };
    case 'selectOption':
      return { ...obj(a[0]), values: a[1] };
    case 'scroll':
      return { dx: (a[0] as { x?: number })?.x, dy: (a[0] as { y?: number })?.y, ...obj(a[1]) };
    case 'upload':
      return { paths: a[0], ...obj(a[1]) };
    case 'tab':
      return { action: a[0], ...obj(a[1]) };
    default:
      return { ...obj(a[0]) };
  }
}

/** A library result as the record's answer: a screenshot gives its frame (and its image), the rest as is. */
function answerOf(value: unknown): { answer: Record<string, unknown>; image?: string } {
  const v = (value ?? {}) as Record<string, unknown>;
  const frame = v.frame as { id?: string; geometry?: Record<string, unknown> } | undefined;
  if (typeof v.base64 === 'string' && frame?.id && frame.geometry) {
    const g = frame.geometry;
    return {
      answer: {
        verdict: 'OK',
        message: `Frame ${frame.id}`,
        frame: {
          id: frame.id,
          image: g.image,
          css: g.css,
          scroll: g.scroll,
          devicePixelRatio: g.devicePixelRatio,
        },
      },
      image: v.base64,
    };
  }
  return { answer: v };
}

/**
 * The session with every action traced as the MCP server traces its tools (SessionOptions.trace): one
 * record per call the library user makes; calls an action makes inside it (a model's batch) are its own.
 */
/** What tracing asks of the session besides its actions: whether typed text went into a password field. */
interface Traceable {
  focusIsPassword(): Promise<boolean>;
}

export function tracedSession<S extends Traceable>(session: S, opts: TraceOptions): S {
  let trace: Trace | undefined;
  let depth = 0;
  return new Proxy(session, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      const tool = typeof prop === 'string' ? TOOLS[prop] : undefined;
      if (!tool || typeof value !== 'function') return value;
      return async (...a: unknown[]) => {
        if (depth > 0) return value.apply(receiver, a);
        depth++;
        const startedAt = Date.now();
        const args = argsOf(prop as string, a);
        const record = async (answer: Record<string, unknown>, image?: string) => {
          trace ??= new Trace(opts);
          const password = await typedIntoPassword(tool, answer, () => (receiver as S).focusIsPassword());
          trace.record({
            tool,
            args,
            answer,
            ...(image ? { image } : {}),
            startedAt,
            typedIntoPassword: password,
          });
        };
        try {
          const out = await value.apply(receiver, a);
          const { answer, image } = answerOf(out);
          await record(answer, image).catch(() => {});
          return out;
        } catch (err) {
          const e = err as { code?: string; message?: string; kind?: string };
          await record({
            verdict: 'ERROR',
            message: e.message ?? String(err),
            error: { code: e.code, kind: e.kind },
          }).catch(() => {});
          throw err;
        } finally {
          depth--;
        }
      };
    },
  });
}
