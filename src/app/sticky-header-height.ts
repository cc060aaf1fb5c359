/**
 * Keeps the sticky app header's height (the navigation bar and, inside a study, its study row) in
 * the --app-header-height property of the document, for what sticks under it: the header rows of
 * long tables (src/widgets/table/data-table.css). The header's height changes with the page (the
 * study row comes and goes) and the screen (its rows wrap on a phone).
 */
export const APP_HEADER_HEIGHT = "--app-header-height";

export function watchStickyHeaderHeight(header: HTMLElement, root: HTMLElement = document.documentElement) {
  const update = () =>
    root.style.setProperty(APP_HEADER_HEIGHT, `${Math.round(header.getBoundingClientRect().height)}px`);
  update();
  const observer = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(update);
  observer?.observe(header);
  return () => {
    observer?.disconnect();
    root.style.removeProperty(APP_HEADER_HEIGHT);
  };
}
