// Every tool definition is read by the model on every step of an agent, so the default set is small and the
// rest is opt-in, as Playwright MCP's --caps: a group adds tools, or fields to the core tools' schemas.

export const CAPS = {
  core: 'navigate (back, forward, reload), screenshot, click, type, press_key, scroll, wait_for, tabs, handle_dialog',
  pointer: 'browser_hover and browser_drag',
  forms: 'browser_select_option and browser_file_upload',
  native: "browser_act: a computer-use model's own actions, as it emitted them",
  zoom: 'browser_zoom: a region rendered anew at a higher scale, as a frame',
  diagnostics: 'browser_point: where a target lands, without acting',
  marks: 'numbered marks on screenshots (`marks`), targets by `mark`',
  convention:
    'the expert coordinate fields: units, box_format, axis_order, origin, space, shown_width, shown_height',
} as const;

export type Cap = keyof typeof CAPS;
export const CAP_NAMES = Object.keys(CAPS) as Cap[];

/** The groups a run enables: core always, `all` for every one; an unknown name is an error naming the rest. */
export function parseCaps(names: readonly string[] = []): ReadonlySet<Cap> {
  const caps = new Set<Cap>(['core']);
  for (const raw of names) {
    const name = raw.trim().toLowerCase();
    if (name === 'all') for (const c of CAP_NAMES) caps.add(c);
    else if ((CAP_NAMES as string[]).includes(name)) caps.add(name as Cap);
    else throw new Error(`unknown capability "${raw}": the groups are ${CAP_NAMES.join(', ')}, or all`);
  }
  return caps;
}

/** The default set: what tools/list gives when the person running trueclick chose nothing. */
export const DEFAULT_CAPS: ReadonlySet<Cap> = parseCaps();
export const ALL_CAPS: ReadonlySet<Cap> = parseCaps(['all']);

/** How a refusal points at a group that is off: who can turn it on, and how. */
export const enableHint = (cap: Cap) =>
  `It is in the "${cap}" group, which this server was started without: the person running trueclick adds it with --caps ${cap} (or --caps all).`;
