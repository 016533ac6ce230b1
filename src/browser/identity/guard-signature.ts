import type { IdentityKit } from './identity.js';

/** What a checked element and its record are: its identity attributes and text, the record's parts and their elements. */
export type Signature = { own: string; parts: string[]; owners: Element[] };

/** What the guard kept at arming that the judgement reads. */
export interface Arming {
  /** What el and its record were at arming; a mutation since is judged against it at the next event. */
  base: Signature;
  /** The record (row) around el: a change in it after the check means another record, same node. */
  rec: Element | null;
  /** For each part of the record at arming: whether no sibling record held the same there. */
  distinct: boolean[];
  /** Parts (indexes at arming) the check saw ticking in place: they may tick until the press too. */
  tickingParts: Set<number>;
}

/**
 * The live half of compare-facts.ts `judge`, for what changes between the check and the press: the
 * signature taken at arming, and whether the element or its record changed since (null: it held; else what
 * changed, in words). Runs in the page inside the guard (guard-script.ts embeds its source), so it uses no
 * imports and no outer variables: the kit comes in, and when each element's text last changed in place.
 */
export function recordSignatures(
  kit: () => IdentityKit<Element>,
  tickTimes: (el: Element) => number[],
): {
  signature(el: Element, rec: Element | null): Signature;
  judgeSince(a: Arming, now: Signature, pressed: boolean): string | null;
} {
  const signature = (el: Element, rec: Element | null): Signature => {
    const k = kit();
    const f = k.fingerprint(el);
    const own = JSON.stringify([f.attrs, f.live ? '' : f.text]);
    return rec
      ? { own, parts: k.recordParts(rec), owners: k.partOwners(rec) }
      : { own, parts: [], owners: [] };
  };
  /** Changed in place more than once lately: a ticking duration, not new data in a reused node. */
  const TICK_WINDOW_MS = 10_000;
  const ticking = (el: Element | undefined) => {
    const t = el ? tickTimes(el) : [];
    return t.filter((x) => x > performance.now() - TICK_WINDOW_MS).length >= 2;
  };
  // Declared live parts and texts that tick are not a move while something that tells the record apart held.
  const judgeSince = (a: Arming, now: Signature, pressed: boolean): string | null => {
    // After the press, the page answers it (a checkbox checks, a field fills): values are its answer.
    const keep = (p: string) => !p.startsWith('~') && !(pressed && p.startsWith('v:'));
    const was = a.base.parts.map((p, i) => ({ p, i })).filter((x) => keep(x.p));
    const is = now.parts.map((p, i) => ({ p, i })).filter((x) => keep(x.p));
    if (was.length !== is.length) return 'its record';
    const moved = was.filter((x, j) => x.p !== is[j]?.p);
    if (moved.length > 0) {
      const held = was.some((x, j) => x.p === is[j]?.p && (a.distinct[x.i] ?? true));
      const ticks = moved.every((x) => {
        const at = is[was.indexOf(x)];
        const tick = a.tickingParts.has(x.i) || ticking(now.owners[at?.i ?? -1]);
        // A picture that arrives (the app swaps the placeholder's src) in a record whose name held.
        if (x.p.startsWith('i:') && at?.p.startsWith('i:')) return true;
        return x.p.startsWith('t:') && at?.p.startsWith('t:') && tick;
      });
      if (!held || !ticks) return 'its record';
    }
    if (now.own !== a.base.own && (moved.length === 0 || !a.rec)) return 'its content';
    return null;
  };
  return { signature, judgeSince };
}
