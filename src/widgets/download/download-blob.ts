/** Hands a Blob to the browser's download under a file name (an object URL behind a hidden link). */
export function downloadBlob(fileName: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click has been handled: the download reads the URL asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
