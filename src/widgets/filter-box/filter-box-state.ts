/**
 * The filter box's state (spec 02 section 4 "Widget states"): the filter applied to the list,
 * the draft being edited in the box, and whether the draft was edited since it opened. An edit
 * enables Apply and Cancel; Clear is enabled only while a filter is applied. Plain data: a
 * reducer the component runs with useReducer.
 */

export type FilterBoxState<Value> = {
  /** What the list is filtered by now. */
  applied: Value;
  /** What the box shows. */
  draft: Value;
  edited: boolean;
};

export type FilterBoxAction<Value> =
  | { type: "edit"; draft: Value }
  | { type: "apply" }
  | { type: "cancel" }
  | { type: "clear"; empty: Value }
  /** The box opens on the applied filter. */
  | { type: "open" };

export function initialFilterBoxState<Value>(applied: Value): FilterBoxState<Value> {
  return { applied, draft: applied, edited: false };
}

export function filterBoxReducer<Value>(
  state: FilterBoxState<Value>,
  action: FilterBoxAction<Value>,
): FilterBoxState<Value> {
  switch (action.type) {
    case "edit":
      return { ...state, draft: action.draft, edited: true };
    case "apply":
      return state.edited ? { applied: state.draft, draft: state.draft, edited: false } : state;
    case "cancel":
    case "open":
      return { ...state, draft: state.applied, edited: false };
    case "clear":
      return { applied: action.empty, draft: action.empty, edited: false };
  }
}

export type FilterBoxButtons = { apply: boolean; cancel: boolean; clear: boolean };

/** Which buttons are enabled: Apply and Cancel after an edit; Clear while a filter is applied. */
export function filterBoxButtons<Value>(
  state: FilterBoxState<Value>,
  isEmpty: (value: Value) => boolean,
): FilterBoxButtons {
  return { apply: state.edited, cancel: state.edited, clear: !isEmpty(state.applied) };
}

/** A filter made of chosen keys (e.g. status groups) is empty when none is chosen. */
export function isEmptySelection(value: readonly string[]): boolean {
  return value.length === 0;
}
