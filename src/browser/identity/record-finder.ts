import type { IdentityLists, RecordOf, TreeView } from './tree-view.js';

/** The record finder: the row, card or item around an element, and the parts that tell it from its siblings. */
export interface RecordFinder<N> {
  /** The record around n (RecordOf.node), found by structure whatever its tag; null when nothing repeats around it. */
  record(n: N): RecordOf<N> | null;
  /** The parts of a record (RecordOf.node), in document order: see `recordParts` in the kit. */
  recordParts(r: N): string[];
  /** For each of recordParts(r): the element that holds it (a text's parent, the input, the img). */
  partOwners(r: N): N[];
  /**
   * For each part of n's record: whether a sibling record holds something else there (that part tells the
   * record apart). Null when n has no record.
   */
  distinctParts(n: N): boolean[] | null;
  /**
   * For each part of n's record: whether no sibling record holds the same there (that part alone names the
   * record: what may hold while a duration ticks). Null when n has no record.
   */
  uniqueParts(n: N): boolean[] | null;
}

/** What the finder reads through the identity kit that builds it. */
export interface KitReads<N> {
  children(n: N): N[];
  control(n: N): N | null;
  role(n: N): string;
  label(n: N): string;
  text(n: N, cap?: number): string;
  norm(s: string, cap: number): string;
  declaresLive(n: N): boolean;
  /** Elements whose text is not content (style, script, template). */
  skipText: string[];
}

/**
 * Part of the identity kit (identity.ts builds it), so it runs on both sides alike: guard-script.ts embeds
 * its source beside the kit's, and it uses no imports and no outer variables.
 */
export function recordFinder<N>(v: TreeView<N>, lists: IdentityLists, k2: KitReads<N>): RecordFinder<N> {
  const { children, control, role, label, text, norm, declaresLive } = k2;
  const SIBLINGS_EACH_SIDE = 4;
  const dataId = new RegExp(lists.dataId);

  /** The element reached from `top` by the same steps (tag, n-th child of that tag) as `path`. */
  const follow = (top: N, path: Array<[string, number]>): N | null => {
    let x: N = top;
    for (const [tag, nth] of path) {
      let seen = 0;
      let next: N | null = null;
      for (const c of children(x)) {
        if (v.tag(c) !== tag) continue;
        if (seen++ === nth) {
          next = c;
          break;
        }
      }
      if (next === null) return null;
      x = next;
    }
    return x;
  };

  const stepOf = (n: N, parent: N): [string, number] => {
    const t = v.tag(n);
    let nth = 0;
    for (const c of children(parent)) {
      if (c === n) break;
      if (v.tag(c) === t) nth++;
    }
    return [t, nth];
  };

  const nearSiblings = (r: N, parent: N): N[] => {
    const all = children(parent);
    const i = all.indexOf(r);
    const out: N[] = [];
    for (let d = 1; d <= SIBLINGS_EACH_SIDE; d++) {
      const before = all[i - d];
      const after = all[i + d];
      if (before !== undefined) out.push(before);
      if (after !== undefined) out.push(after);
    }
    return out;
  };

  const classes = (n: N): string[] => (v.attrs(n).class ?? '').split(/\s+/).filter(Boolean);
  // Rows of one list share most classes; state classes come and go on one row (AG Grid's ag-row-hover
  // under the pointer, odd/even, selected, focused), so the same row must stay a record through them.
  const classesAlike = (a: string[], b: string[]): boolean => {
    if (a.length === 0 || b.length === 0) return a.length === b.length;
    const shared = a.filter((k) => b.includes(k)).length;
    return shared * 2 >= Math.max(a.length, b.length);
  };

  // A record is found by structure, whatever its tag: walking up from the control, the first ancestor
  // R with a sibling of R's tag that holds, at the same place, a control of the same role and label (the
  // "Delete" of another row). A cell is not a record: the next cell holds another control, or none. When
  // the controls' labels differ from record to record (each holds its own id), the fallback is the first
  // R with two such siblings of R's tag and (mostly) its classes holding a control of the same role there.
  const record = (n: N): RecordOf<N> | null => {
    const start = control(n) ?? n;
    const chain: Array<{ r: N; parent: N; path: Array<[string, number]> }> = [];
    const path: Array<[string, number]> = [];
    for (let x = start; ; ) {
      const p = v.parent(x);
      if (p === null) break;
      const pt = v.tag(p);
      if (pt === 'BODY' || pt === 'HTML') break;
      path.unshift(stepOf(x, p));
      const pp = v.parent(p);
      if (pp === null) break;
      chain.push({ r: p, parent: pp, path: path.slice() });
      x = p;
    }
    const wantRole = role(start);
    const wantLabel = label(start);
    const wantTag = v.tag(start);
    const holdsSame = (sib: N, c: (typeof chain)[number], sameLabel: boolean): boolean => {
      if (v.tag(sib) !== v.tag(c.r)) return false;
      const there = follow(sib, c.path);
      if (there === null || v.tag(there) !== wantTag || role(there) !== wantRole) return false;
      return !sameLabel || label(there) === wantLabel;
    };
    const found = (r: N): RecordOf<N> => ({ node: r, tag: v.tag(r), text: reading(r) || text(r, 300) });
    for (const c of chain) {
      if (nearSiblings(c.r, c.parent).some((s) => holdsSame(s, c, true))) return found(c.r);
    }
    for (const c of chain) {
      const cls = classes(c.r);
      const alike = nearSiblings(c.r, c.parent).filter(
        (s) => classesAlike(cls, classes(s)) && holdsSame(s, c, false),
      );
      if (alike.length >= 2) return found(c.r);
    }
    return chartOf(start, found);
  };

  // A chart drawn in SVG has no rows: its texts (categories, value labels) hold no structure that repeats
  // around a bar. The chart is then one record, its texts in order: a value that ticks in place is the chart
  // living while its categories hold, and bars re-sorted read as another record.
  const chartOf = (n: N, found: (r: N) => RecordOf<N>): RecordOf<N> | null => {
    let svg: N | null = null;
    for (let x: N | null = n; x; x = v.parent(x)) if (v.tag(x).toUpperCase() === 'SVG') svg = x;
    if (svg === null) return null;
    let texts = 0;
    for (const p of partsOf(svg)) if (/^~?t:/.test(p.part) && ++texts >= 2) return found(svg);
    return null;
  };

  const MAX_PARTS = 80;
  /** A select's chosen options, as what the select holds. */
  const chosen = (n: N): string => {
    const out: string[] = [];
    const walk = (k: N) => {
      for (const c of children(k)) {
        if (v.tag(c) === 'OPTION') {
          if (v.formState(c) === 'selected') out.push(v.attrs(c).value ?? text(c, 80));
        } else walk(c);
      }
    };
    walk(n);
    return out.join('|');
  };
  // What tells a record apart, part by part in document order: `a:` its own identity attributes, `t:` text
  // (`~t:` when declared live), `v:` what a form control holds, `i:` an image, `h:` a link's target. Parts,
  // not one text: a row of inputs holds no text at all, and a ticking duration is one part among many.
  const partsOf = (r: N): Array<{ part: string; owner: N }> => {
    const out: Array<{ part: string; owner: N }> = [];
    const own = v.attrs(r);
    for (const [k, val] of Object.entries(own))
      if (k === 'id' || dataId.test(k) || lists.recordAttrs.includes(k))
        out.push({ part: `a:${k}=${val}`, owner: r });
    const walk = (n: N, live: boolean) => {
      for (const k of v.kids(n)) {
        if (out.length >= MAX_PARTS) return;
        if (typeof k === 'string') {
          const t = norm(k, 120);
          if (t) out.push({ part: `${live ? '~' : ''}t:${t}`, owner: n });
          continue;
        }
        const t = v.tag(k);
        if (k2.skipText.includes(t)) continue;
        const a = v.attrs(k);
        const kLive = live || declaresLive(k);
        if (t === 'INPUT' || t === 'TEXTAREA') out.push({ part: `v:${v.formState(k) ?? ''}`, owner: k });
        else if (t === 'SELECT') out.push({ part: `v:${chosen(k)}`, owner: k });
        // A lazy loader (lazysizes, lozad) names the picture in data-src before it sets src: that name is
        // what the row shows, so an avatar arriving after the screenshot is not another record.
        else if (t === 'IMG')
          out.push({ part: `i:${a['data-src'] || a.src || ''}|${a.alt ?? ''}`, owner: k });
        else if (t === 'A' && 'href' in a) out.push({ part: `h:${a.href}`, owner: k });
        if (t !== 'SELECT' && t !== 'TEXTAREA') walk(k, kLive);
      }
    };
    walk(r, declaresLive(r));
    return out;
  };
  const recordParts = (r: N): string[] => partsOf(r).map((p) => p.part);
  // What a person reads in a record: its texts and what its text fields hold, in order ("TCK-7741 Export
  // to CSV cuts long names ✕" for a row of inputs, where its text alone is "✕").
  const reading = (r: N): string => {
    const said = partsOf(r).filter(({ part, owner }) => {
      if (/^~?t:/.test(part)) return true;
      if (!part.startsWith('v:') || v.tag(owner) === 'SELECT') return false;
      const type = (v.attrs(owner).type ?? '').toLowerCase();
      return !['checkbox', 'radio', 'password', 'hidden', 'range', 'color'].includes(type);
    });
    // Text nodes side by side in one element read as one word ("@" and "alan" from a template: "@alan").
    let out = '';
    said.forEach((p, i) => {
      const prev = said[i - 1];
      const joined = prev && prev.owner === p.owner && /^~?t:/.test(prev.part) && /^~?t:/.test(p.part);
      out += (joined || i === 0 ? '' : ' ') + p.part.replace(/^~?[a-z]:/, '');
    });
    return norm(out, 300);
  };
  const partOwners = (r: N): N[] => partsOf(r).map((p) => p.owner);

  const compareParts = (n: N, how: 'some' | 'every'): boolean[] | null => {
    const rec = record(n);
    if (!rec) return null;
    const mine = recordParts(rec.node);
    const parent = v.parent(rec.node);
    const sibs = parent === null ? [] : nearSiblings(rec.node, parent).filter((s) => v.tag(s) === rec.tag);
    const theirs = sibs.map(recordParts);
    // A record alone of its kind (a chart) is told apart by all it holds.
    if (theirs.length === 0) return mine.map(() => true);
    return mine.map((p, i) => theirs[how]((t) => t[i] !== p));
  };
  const distinctParts = (n: N) => compareParts(n, 'some');
  const uniqueParts = (n: N) => compareParts(n, 'every');

  return { record, recordParts, partOwners, distinctParts, uniqueParts };
}
