// Saving generated content (a CSV, the embed handout, a QR code PNG) through the browser's
// download: a temporary link with the `download` attribute, clicked and removed.

/** Saves a URL the page made (a data: or blob: URL) under a file name. */
export function saveUrl(url: string, fileName: string) {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
}

/** Saves a Blob under a file name. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  saveUrl(url, fileName);
  // Some browsers start reading the URL after click() returns; revoke a little later.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
