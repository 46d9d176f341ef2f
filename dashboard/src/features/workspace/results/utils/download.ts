/** Saves a Blob under a file name through a temporary link (the browser's download). */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  // Some browsers start reading the URL after click() returns; revoke a little later.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
