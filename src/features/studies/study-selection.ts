/**
 * The chosen study and site, kept in sessionStorage so a reload keeps it; cleared on entering
 * the study list, as the spec asks.
 */
import type { SelectableStudySite } from "./study-list.ts";

const SELECTION_KEY = "selected_study_site";

export function storeSelection(item: SelectableStudySite) {
  sessionStorage.setItem(SELECTION_KEY, JSON.stringify(item));
}

export function clearSelection() {
  sessionStorage.removeItem(SELECTION_KEY);
}

export function readSelection(): SelectableStudySite | null {
  try {
    const raw = sessionStorage.getItem(SELECTION_KEY);
    return raw ? (JSON.parse(raw) as SelectableStudySite) : null;
  } catch {
    return null;
  }
}
