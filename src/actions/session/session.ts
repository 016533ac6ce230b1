import { BrowserError } from '../../browser/plumbing/errors.js';
import { holdKeys } from '../../browser/plumbing/keyboard.js';
import { type BrowserHandle, openBrowser } from '../../browser/plumbing/launch.js';
import { type Move, moveTab, type NavigationResult } from '../../browser/plumbing/navigation.js';
import type { PageDriver } from '../../browser/plumbing/page-driver.js';
import type { DialogInfo } from '../../browser/plumbing/page-events.js';
import { defaultPolicy, type UrlPolicy } from '../../browser/plumbing/url-policy.js';
import { type Capture, type CaptureOptions, captureFrame } from '../../browser/snapshot/capture.js';
import { markColour } from '../../image/draw.js';
import { drawMarks } from '../../image/marks.js';
import type { Approver } from '../approval/gate.js';
import { approvalScope } from '../approval/scope.js';
import { effectSentence } from '../check/effect.js';
import { ActionError } from '../check/errors.js';
import { followSentence } from '../check/follow.js';
import { MissLog } from '../check/misses.js';
import { type ActionContext, frameIn } from '../check/target.js';
import type { ClickReport, Point } from '../check/verdicts.js';
import { answerDialog, type DialogAnswer, type UploadResult, uploadFiles } from '../verbs/answers.js';
import { type ClickRequest, guardedClick, pointAt } from '../verbs/click.js';
import {
  type DragReport,
  type DragRequest,
  guardedDrag,
  guardedPress,
  moveWithButton,
} from '../verbs/drag.js';
import { guardedHover } from '../verbs/hover.js';
import { focusedField, pressKeys, type TypeOptions, type TypeResult, typeInto } from '../verbs/keys.js';
import { marksFor } from '../verbs/marks.js';
import { checkUrl } from '../verbs/navigation.js';
import { type ScrollReport, scrollAt } from '../verbs/scroll.js';
import { guardedSelect, type SelectReport } from '../verbs/select.js';
import { type TabAction, type TabInfo, tabAction } from '../verbs/tabs.js';
import { type WaitRequest, type WaitResult, waitFor } from '../verbs/wait.js';
import { type ZoomRequest, zoomRegion } from '../verbs/zoom.js';
import { type FrameRecord, FrameStore } from './frames.js';
import { effectsSentence, PageWatch } from './page-watch.js';
import { SessionBrowser } from './session-browser.js';
import { tracedSession } from './session-trace.js';
import type { KeyName, Screenshot, SessionOptions, WithEffects } from './session-types.js';

export type { TypeResult } from '../verbs/keys.js';
export type { KeyName, Screenshot, SessionOptions, WithEffects } from './session-types.js';

/**
 * One agent's browser: its tabs, their frames and the misses. MCP tools, the CLI and the library all act
 * through this class, so there is one implementation of each action.
 */
export class TrueclickSession {
  readonly frames = new FrameStore();
  readonly misses = new MissLog();
  /** The browser, its tabs, and what happened to them that the agent must hear. */
  private readonly browser: SessionBrowser;
  /** Where trueclick last put the mouse, CSS viewport px (a model's click "at the cursor" goes there). */
  private cursorAt: Point | null = null;
  /** The left button is down (a model's left_mouse_down, until its left_mouse_up). */
  private held = false;
  /** The document the held button was pressed in (its loader id). */
  private heldIn = '';

  constructor(
    private readonly options: SessionOptions = {},
    handle?: BrowserHandle,
  ) {
    this.browser = new SessionBrowser({
      open: options.browserSource ?? (() => openBrowser(options)),
      frames: this.frames,
      misses: this.misses,
      // A new browser has its mouse nowhere and no button down.
      onRelaunch: () => {
        this.cursorAt = null;
        this.held = false;
      },
      ...(handle ? { handle } : {}),
    });
    // biome-ignore lint/correctness/noConstructorReturn: the traced session is this one, seen through a recorder.
    if (options.trace) return tracedSession(this, options.trace);
  }

  /** Where the browser may go (the default: http, https and about: pages, any origin). */
  private get policy(): UrlPolicy {
    return this.options.urlPolicy ?? defaultPolicy();
  }

  /** The active tab's driver; a tab whose page crashed or hangs is replaced first (and the agent told). */
  driver(): Promise<PageDriver> {
    return this.browser.driver();
  }

  takeNotice(): string | undefined {
    return this.browser.takeNotice();
  }

  /** A failure because the tab went, told as its source knows it (e.g. the user stopped sharing it). */
  explain(err: unknown): Promise<unknown> {
    return this.browser.explain(err);
  }

  /** The dialog the active tab shows, if any (the page is frozen until it is answered). */
  get dialog(): DialogInfo | null {
    return this.browser.dialog;
  }

  /**
   * What an action needs: the active tab's driver, the frames, the misses. While that tab shows a dialog the
   * page is frozen (every call into it waits), so only answering it, and the tabs, may go on.
   */
  private async context(opts: { whileDialog?: boolean } = {}): Promise<ActionContext> {
    const driver = await this.driver();
    if (!opts.whileDialog) this.browser.assertNoDialog();
    return { driver, frames: this.frames, misses: this.misses, tab: (await this.browser.tabs()).active.id };
  }

  /** Runs an action and adds what it opened; a new tab it opened becomes the active one. */
  private async watched<T extends object>(
    work: (ctx: ActionContext) => Promise<T>,
    opts: { whileDialog?: boolean } = {},
  ): Promise<WithEffects<T>> {
    const ctx = await this.context(opts);
    const watch = new PageWatch(ctx.driver, await this.browser.tabs(), this.browser.blocked);
    const value = await work(ctx);
    const effects = await watch.effects();
    if (effects.newTab) this.misses.clear();
    return { ...value, ...effects };
  }

  /** An action's report with what it opened said in its message too; the mouse is where it was sent. */
  private async reported<T extends ClickReport>(
    work: (ctx: ActionContext) => Promise<T>,
  ): Promise<WithEffects<T>> {
    const r = await this.watched(work);
    r.message = followSentence(r) + r.message + effectsSentence(r);
    // A dialog, a tab or a file chooser the action opened is its effect, whatever the page did besides: the
    // page's own "nothing changed" would read as if the press did nothing.
    if (r.verdict === 'OK' && (r.dialog || r.newTab || r.fileChooser)) {
      if (r.effect?.kind === 'none') r.message = r.message.replace(effectSentence(r.effect), '');
      r.effect = r.dialog
        ? { kind: 'opened', what: `${r.dialog.type} dialog`, name: r.dialog.message.slice(0, 80) }
        : r.newTab
          ? { kind: 'opened', what: 'tab', name: r.newTab.url }
          : { kind: 'opened', what: 'file chooser' };
    }
    const end = (r as Partial<DragReport>).drop?.point ?? r.dispatched;
    if (end) this.cursorAt = end;
    return r;
  }

  /** Where trueclick last put the mouse, CSS viewport px; null before it moved it. */
  get cursor(): Point | null {
    return this.cursorAt;
  }

  get buttonHeld(): boolean {
    return this.held;
  }

  /** The frame, if it still describes the active tab (else the refusal that says why). */
  async frame(id: string): Promise<FrameRecord> {
    return await frameIn(await this.context(), id);
  }

  /** @param timeoutMs how long to wait for the load (default 30 s); a page that arrived but is still loading then is an answer (`stillLoading`), not an error. */
  async navigate(
    url: string,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<WithEffects<NavigationResult>> {
    checkUrl(url, this.policy);
    return this.move('goto', { url, ...(signal ? { signal } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
  }

  back(signal?: AbortSignal) {
    return this.move('back', signal ? { signal } : {});
  }

  forward(signal?: AbortSignal) {
    return this.move('forward', signal ? { signal } : {});
  }

  reload(signal?: AbortSignal) {
    return this.move('reload', signal ? { signal } : {});
  }

  private async move(
    how: Move,
    opts: { url?: string; signal?: AbortSignal; timeoutMs?: number },
  ): Promise<WithEffects<NavigationResult>> {
    const since = Date.now();
    let frame = '';
    // Leaving a page stuck in a script would wait for it (30 s, every time): such a tab is replaced first.
    await this.browser.ensureResponsive();
    try {
      const r = await this.watched(({ driver }) => {
        frame = driver.mainFrameId;
        return moveTab(driver, how, opts);
      });
      this.misses.clear();
      return r;
    } catch (err) {
      // A redirect to an origin the policy refuses fails the load: say where it went and why.
      const refused = this.browser.blocked.filter((b) => b.t >= since && b.frameId === frame).at(-1);
      if (refused && err instanceof BrowserError && err.code === 'NAVIGATION_FAILED')
        throw new ActionError(
          'URL_NOT_ALLOWED',
          `The page went on to ${refused.url.slice(0, 200)} (a redirect), which trueclick blocks: ${refused.reason}.`,
          'Open another page; the person running trueclick sets --allowed-origins and --blocked-origins.',
          'url',
        );
      throw err;
    }
  }

  async screenshot(opts: { marks?: boolean; maxWidth?: number } = {}): Promise<Screenshot> {
    try {
      return await this.shoot(opts);
    } catch (err) {
      // The user shared another tab as the capture began: the image is of the tab shared now (the notice
      // says so), as the same call a moment later would have been.
      if (!(await this.browser.handedOver(err))) throw err;
      return this.shoot(opts);
    }
  }

  private async shoot(opts: { marks?: boolean; maxWidth?: number }): Promise<Screenshot> {
    const { driver, tab } = await this.context();
    const capture: Capture = await captureFrame(driver, this.captureOptions(opts.maxWidth));
    return this.framed(capture, tab, opts.marks ?? false);
  }

  /** A closer look at a region of a frame: a frame of its own, whose pixels clicks can use. */
  async zoom(req: ZoomRequest): Promise<Screenshot> {
    const ctx = await this.context();
    const { capture, of } = await zoomRegion(ctx, req, this.captureOptions(req.max_width));
    return this.framed(capture, ctx.tab, req.marks ?? false, of);
  }

  private captureOptions(maxWidth?: number): CaptureOptions {
    const co: CaptureOptions = {};
    if (this.options.maxImageEdge !== undefined) co.maxImageEdge = this.options.maxImageEdge;
    if (maxWidth !== undefined) co.maxWidth = maxWidth;
    return co;
  }

  private async framed(
    capture: Capture,
    tab: number,
    withMarks: boolean,
    zoomOf?: string,
  ): Promise<Screenshot> {
    const opts = { tab, ...(zoomOf ? { zoomOf } : {}) };
    if (!withMarks) {
      const frame = this.frames.add(capture, opts);
      return { frame, base64: capture.base64, mimeType: capture.mimeType };
    }
    // Marks are read off the snapshot, so this answer waits for it.
    const marks = marksFor(capture, await capture.snapshot);
    const png = await drawMarks(
      Buffer.from(capture.base64, 'base64'),
      marks.map((m) => ({ box: m.image, id: m.id, colour: markColour(m.id) })),
    );
    const frame = this.frames.add(capture, { ...opts, marks });
    return { frame, base64: png.toString('base64'), mimeType: 'image/png', marks };
  }

  click(req: ClickRequest): Promise<WithEffects<ClickReport>> {
    const approver = approvalScope.getStore() ?? this.approver;
    return this.reported((ctx) => guardedClick(ctx, req, approver));
  }

  /** The library's own approver, from `approve`; an MCP call brings its own (approvalScope). */
  private get approver(): Approver | undefined {
    const { approve, approvePresses, approveWhen } = this.options;
    if (!approve) return undefined;
    return {
      policy: { presses: approvePresses ?? 'destructive', ...(approveWhen ? { when: approveWhen } : {}) },
      ask: async (request) => ({ approved: (await approve(request)) === true, route: 'callback' }),
    };
  }

  async point(req: ClickRequest): Promise<ClickReport> {
    return pointAt(await this.context(), req);
  }

  hover(req: ClickRequest): Promise<WithEffects<ClickReport>> {
    return this.reported((ctx) => guardedHover(ctx, req, req.modifiers ?? []));
  }

  drag(req: DragRequest): Promise<WithEffects<DragReport>> {
    return this.reported((ctx) => guardedDrag(ctx, req));
  }

  /** Presses the left button at a checked point and keeps it down (a model's left_mouse_down). */
  async press(req: ClickRequest): Promise<WithEffects<ClickReport>> {
    const approver = approvalScope.getStore() ?? this.approver;
    const r = await this.reported((ctx) => {
      this.heldIn = ctx.driver.loaderId;
      return guardedPress(ctx, req, req.modifiers ?? [], approver);
    });
    if (r.verdict === 'OK') this.held = true;
    return r;
  }

  /** Where the held button went down, while it is held. */
  private get pressedIn(): string | undefined {
    return this.held ? this.heldIn : undefined;
  }

  /** Moves the mouse with the left button held (between a press and its release). */
  moveHeld(req: ClickRequest, modifiers: ClickRequest['modifiers'] = []): Promise<WithEffects<ClickReport>> {
    return this.reported((ctx) => moveWithButton(ctx, this.cursorAt, req, modifiers, true, this.pressedIn));
  }

  /** Releases the left button, moving there first with it held (a model's left_mouse_up). */
  async releaseButton(req: ClickRequest): Promise<WithEffects<ClickReport>> {
    try {
      const r = await this.reported((ctx) =>
        moveWithButton(ctx, this.cursorAt, req, req.modifiers ?? [], false, this.pressedIn),
      );
      this.held = false;
      return r;
    } catch (err) {
      // Refused before anything was sent (an ActionError; the browser's own errors may come after the
      // release went out): the button is still down, and what the agent does next presses into it.
      if (!this.held || !(err instanceof ActionError)) throw err;
      throw new ActionError(
        err.code,
        `${err.problem} The left button is still held down.`,
        `${err.hint} Then send the release (left_mouse_up) again.`,
        err.field,
        err.kind,
      );
    }
  }

  selectOption(req: ClickRequest, values: string[]): Promise<WithEffects<SelectReport>> {
    return this.reported((ctx) => guardedSelect(ctx, req, values));
  }

  /** The wheel at a checked point (or the viewport centre): the scroll container under it scrolls. */
  scroll(
    delta: Point,
    target?: ClickRequest,
    modifiers: ClickRequest['modifiers'] = [],
  ): Promise<WithEffects<ScrollReport>> {
    return this.reported((ctx) => scrollAt(ctx, target, delta, modifiers));
  }

  /**
   * Types into the focused element, or clicks a target first (guarded, like browser_click). `clear`
   * selects what the field holds and deletes it first.
   */
  async type(text: string, opts: TypeOptions): Promise<WithEffects<TypeResult>> {
    return this.watched((ctx) => typeInto(ctx, text, opts));
  }

  pressKey(
    key: KeyName,
    opts: { repeat?: number; signal?: AbortSignal } = {},
  ): Promise<WithEffects<{ pressed: number }>> {
    return this.watched(({ driver }) => pressKeys(driver.page, key, opts));
  }

  /** The viewport as it is now, for a trace to show beside a refusal: an image only, not a frame to act by. */
  async lookNow(): Promise<{ base64: string; image: Capture['image']; css: Capture['css'] }> {
    const { driver } = await this.context();
    const c = await captureFrame(driver, this.captureOptions());
    c.snapshot.catch(() => {});
    return { base64: c.base64, image: c.image, css: c.css };
  }

  /** Whether the focused element (through shadow roots and same-origin frames) is a password field. */
  async focusIsPassword(): Promise<boolean> {
    const { driver } = await this.context({ whileDialog: true });
    return (await focusedField(driver.page))?.password ?? false;
  }

  /** One key down or up (Gemini's key_down / key_up). */
  async keyboard(how: 'down' | 'up', key: KeyName): Promise<void> {
    const { driver } = await this.context();
    await (how === 'down' ? driver.page.keyboard.down(key) : driver.page.keyboard.up(key));
  }

  /** Holds keys down for a while (Anthropic's hold_key). */
  async holdKeys(keys: KeyName[], ms: number, signal?: AbortSignal): Promise<void> {
    const { driver } = await this.context();
    await holdKeys(driver.page, keys, ms, signal);
  }

  /** Answers the dialog the active tab shows; reports where the page went after it. */
  handleDialog(accept: boolean, promptText?: string): Promise<WithEffects<DialogAnswer>> {
    return this.watched((ctx) => answerDialog(ctx, accept, promptText), { whileDialog: true });
  }

  /** Puts files into the file chooser a checked click opens (with `target`), or into the one already open. */
  upload(paths: string[], target?: ClickRequest): Promise<WithEffects<UploadResult>> {
    return this.watched((ctx) => uploadFiles(ctx, paths, this.options.uploadDir ?? process.cwd(), target));
  }

  async tabList(): Promise<TabInfo[]> {
    return (await this.browser.tabs()).list();
  }

  /** Opens a tab (and a URL in it), selects one, or closes one; says which tab is active after. */
  async tab(action: TabAction, opts: { index?: number; url?: string; signal?: AbortSignal } = {}) {
    if (action === 'new' && opts.url) checkUrl(opts.url, this.policy);
    return tabAction(await this.browser.tabs(), action, opts);
  }

  async waitFor(req: WaitRequest, signal?: AbortSignal): Promise<WaitResult> {
    const { driver } = await this.context();
    return waitFor(driver.page, req, signal);
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

export { ActionError, BrowserError };
