/**
 * The few reads the kit needs, over the *flat tree* (the tree as rendered: a shadow host's children are its
 * open shadow root's children, a slot's children are the nodes assigned to it). DOMSnapshot reports that
 * tree; the live side walks it through shadowRoot and assignedSlot. Closed and user-agent shadow trees are
 * what the page's own scripts cannot see either: the snapshot side steps over them. `N` is a snapshot node
 * index on one side and an Element on the other.
 */
export interface TreeView<N> {
  /** Parent element in the flat tree (a slotted node's slot, a shadow tree's host); null above <html>. */
  parent(n: N): N | null;
  /** Whether n lies inside a shadow tree (of any mode). */
  inShadow(n: N): boolean;
  /** Whether n is a light-tree element with an open shadow root. */
  isHost(n: N): boolean;
  /** Element and text children in the flat tree, in order. */
  kids(n: N): Array<N | string>;
  /** Upper-case tag name. */
  tag(n: N): string;
  attrs(n: N): Record<string, string>;
  /**
   * The state a form control holds (a text field's value, a box's checked state, a select's chosen
   * options), which no attribute need show; null for any other element.
   */
  formState(n: N): string | null;
  /** Whether n lies in a closed or user-agent shadow tree: what the page's own scripts cannot reach. */
  closedShadow(n: N): boolean;
}

export interface IdentityLists {
  actionableTags: string[];
  actionableRoles: string[];
  /** Attributes that say which thing an element is (element-facts.ts IDENTITY_ATTRS). */
  identityAttrs: string[];
  /** Source of the regular expression for data-* attributes that name a record. */
  dataId: string;
  /** What a record element's own attributes may say of which record it is (beside `id` and data ids). */
  recordAttrs: string[];
}

/** A row, card or list item: the nearest ancestor that is one of a run of similar siblings. */
export interface RecordOf<N> {
  node: N;
  tag: string;
  text: string;
}
