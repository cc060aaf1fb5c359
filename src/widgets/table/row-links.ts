/**
 * Whole-row navigation for tables whose rows each hold one `.row-link` (the studies, search
 * results, consents): a click or tap anywhere on a row follows that row's link, and the link
 * stays the row's one focusable, announced control (Enter on it opens the row).
 *
 * Why not a link stretched over its row with `::after { position: absolute; inset: 0 }`: it needs
 * a positioned table row, and WebKit (every iPad browser) computes `position: static` for table
 * rows whatever the style says. The overlays were then laid against the table, the last one
 * covering every row, and a tap on the first row opened the last one.
 */

const INTERACTIVE = "a, button, input, select, textarea, label, summary, [role='button'], [tabindex]";

/** Follows the link of the row a click landed on, unless it landed on a control of its own. */
export function followRowLink(event: MouseEvent) {
  if (event.defaultPrevented || event.button !== 0 || !(event.target instanceof Element)) return;
  const row = event.target.closest("tbody tr");
  const link = row?.querySelector<HTMLAnchorElement>("a.row-link");
  if (!row || !link) return;
  // A control of the row's own (the link itself, a button) does its own thing.
  const control = event.target.closest(INTERACTIVE);
  if (control && row.contains(control)) return;
  // A drag that selected a cell's text (a subject id to copy) is not a tap.
  if (window.getSelection()?.toString()) return;
  link.dispatchEvent(
    new MouseEvent("click", {
      bubbles: true,
      cancelable: true,
      button: 0,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
      altKey: event.altKey,
    }),
  );
}

/** A callback ref for the table: listens while it is mounted. */
export function rowLinksRef(table: HTMLTableElement | null) {
  if (!table) return undefined;
  table.addEventListener("click", followRowLink);
  return () => table.removeEventListener("click", followRowLink);
}
