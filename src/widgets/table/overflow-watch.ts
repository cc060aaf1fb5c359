/**
 * Whether a table is wider than its region. A table that fits is laid out without a scrolling
 * region, so that its header row can stick under the app's sticky header while its rows scroll by
 * (a sticky cell sticks inside its nearest scrolling ancestor, and a region that scrolls sideways
 * scrolls vertically too, as far as CSS is concerned). Only a table that does not fit (a long
 * translation, a large text size) scrolls sideways in its focusable region, and loses the sticky
 * header row.
 */

/** Whether the table is wider than the region's content box (a pixel of rounding allowed). */
export function tableOverflows(region: HTMLElement, table: HTMLElement | null): boolean {
  return table !== null && table.getBoundingClientRect().width > region.clientWidth + 1;
}

/**
 * Calls onChange with whether the region's table overflows it, now and whenever either is
 * resized (the screen turned, rows filtered); the returned function stops watching.
 */
export function watchOverflow(region: HTMLElement, onChange: (overflows: boolean) => void): () => void {
  const table = region.querySelector("table");
  const check = () => onChange(tableOverflows(region, table));
  check();
  if (typeof ResizeObserver === "undefined") return () => undefined;
  const observer = new ResizeObserver(check);
  observer.observe(region);
  if (table) observer.observe(table);
  return () => observer.disconnect();
}
