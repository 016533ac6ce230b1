import type { TreeView } from './identity.js';

/**
 * The live page as the identity kit's TreeView, read from Elements in trueclick's isolated world: the flat
 * tree as DOMSnapshot reports it (snapshot-doc.ts is the other side), so both sides name an element alike.
 * Runs in the page inside the guard (guard-script.ts embeds its source): no imports, no outer variables.
 */
export function liveTreeView(): TreeView<Element> {
  const allAttrs = (el: Element) => {
    const out: Record<string, string> = {};
    for (const a of Array.from(el.attributes)) out[a.name.toLowerCase()] = a.value;
    return out;
  };
  const kidsOf = (list: ArrayLike<Node>) => {
    const out: Array<Element | string> = [];
    for (const k of Array.from(list)) {
      if (k.nodeType === 1) out.push(k as Element);
      else if (k.nodeType === 3) out.push(k.nodeValue ?? '');
    }
    return out;
  };
  const inShadow = (n: Element) => n.getRootNode() instanceof ShadowRoot;
  // The flat tree, as DOMSnapshot reports it: an open host's children are its shadow root's, a slot's are
  // the nodes assigned to it (or its fallback content). Closed roots stay closed: assignedSlot is null there.
  return {
    parent: (n: Element): Element | null => {
      const slot = n.assignedSlot;
      if (slot) return slot;
      const p = n.parentNode;
      if (p instanceof ShadowRoot) return p.host;
      return p instanceof Element ? p : null;
    },
    inShadow,
    isHost: (n: Element) => n.shadowRoot !== null && !inShadow(n),
    kids: (n: Element) => {
      if (n.shadowRoot) return kidsOf(n.shadowRoot.childNodes);
      if (n instanceof HTMLSlotElement && inShadow(n)) {
        const assigned = n.assignedNodes();
        if (assigned.length > 0) return kidsOf(assigned);
      }
      return kidsOf(n.childNodes);
    },
    tag: (n: Element) => n.nodeName.toUpperCase(),
    attrs: allAttrs,
    // As SnapshotDoc.formState reads the snapshot: the property, which no attribute need show.
    formState: (n: Element): string | null => {
      if (n instanceof HTMLOptionElement) return n.selected ? 'selected' : '';
      if (n instanceof HTMLTextAreaElement) return n.value;
      if (!(n instanceof HTMLInputElement)) return null;
      const type = n.type.toLowerCase();
      if (type === 'checkbox' || type === 'radio') return n.checked ? 'on' : 'off';
      return type === 'password' ? `${n.value.length} characters` : n.value;
    },
    closedShadow: (n: Element) => {
      const root = n.getRootNode();
      return root instanceof ShadowRoot && root.mode !== 'open';
    },
  };
}
