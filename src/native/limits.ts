// Bounds on what one call may ask for. Model output is untrusted: these keep a parse fast and an executed batch
// short, and each is far above what a sensible action needs.

export const NATIVE_LIMITS = {
  /** Raw text (UI-TARS, Qwen, or a JSON string) in characters. */
  rawChars: 65_536,
  /** Actions in one batch (tool_use blocks, actions[], function calls, UI-TARS calls, tool_call blocks). */
  actions: 50,
  /** Characters typed by one action, or carried by a done step. */
  typedChars: 10_000,
  /** `repeat` of a key press. */
  repeat: 100,
  /** Seconds of a wait or a held key. */
  seconds: 60,
  urlChars: 8_192,
  /** Presses in one key sequence ("Backspace Backspace Delete"), repeats included. */
  keySequence: 50,
  /** Keys held together in one chord. */
  chordKeys: 8,
  /** Points of an OpenAI drag path. */
  pathPoints: 1_000,
  /** Ids echoed back (tool_use id, call_id, tab_id, safety check fields). */
  idChars: 1_024,
  /** Pending safety checks of one computer_call. */
  safetyChecks: 50,
  /** Largest scroll per unit: 100 wheel notches, 100 000 px, 10 viewports on the grid, 100 viewports. */
  scroll: { wheel_click: 100, image_px: 100_000, grid: 10_000, viewport: 100 },
} as const;

/** The far edge of the grid families' coordinates: they write 0..999, and 1000 is accepted as the edge. */
export const GRID_MAX = 1_000;
