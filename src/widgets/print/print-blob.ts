/**
 * Prints a document Blob (a PDF) without leaving the page: it is loaded into a hidden iframe,
 * whose window prints it once loaded. The frame and its object URL are removed after the print
 * dialog, or after a minute at the latest when the browser never says.
 */
const CLEANUP_AFTER_MS = 60_000;

export function printBlob(blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const frame = document.createElement("iframe");
  frame.style.position = "fixed";
  frame.style.width = "0";
  frame.style.height = "0";
  frame.style.border = "0";
  frame.setAttribute("aria-hidden", "true");
  frame.tabIndex = -1;
  let removed = false;
  const cleanup = () => {
    if (removed) return;
    removed = true;
    frame.remove();
    URL.revokeObjectURL(url);
  };
  frame.addEventListener("load", () => {
    const view = frame.contentWindow;
    if (!view) return;
    view.addEventListener("afterprint", () => setTimeout(cleanup, 0));
    view.focus();
    view.print();
  });
  setTimeout(cleanup, CLEANUP_AFTER_MS);
  frame.src = url;
  document.body.append(frame);
}
