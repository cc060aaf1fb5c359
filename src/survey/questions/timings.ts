/** How long a newly selected choice keeps its `selecting` highlight (spec 02 §4 and §9). */
export const SELECT_HIGHLIGHT_MS = 300;
/** How long a choice that lost its selection keeps its `deselecting` highlight (spec 02 §4 and §9). */
export const DESELECT_HIGHLIGHT_MS = 200;
