/**
 * Spec (error catalogue): an image that fails to load falls back to a default placeholder image.
 * Inline SVGs, so the placeholder itself never fails to load.
 */
const svg = (body: string, box: string) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box}">${body}</svg>`)}`;

/** A person on grey: writers' photos and the Q&A owner's photo. */
export const AVATAR_PLACEHOLDER = svg(
  '<rect width="24" height="24" fill="#e4e4e4"/><circle cx="12" cy="9.5" r="4" fill="#9e9e9e"/><path d="M4 22a8 7 0 0 1 16 0z" fill="#9e9e9e"/>',
  '0 0 24 24',
);

/** A grey 4:3 box: image questions. */
export const IMAGE_PLACEHOLDER = svg('<rect width="4" height="3" fill="#e4e4e4"/>', '0 0 4 3');

/** An `@error` listener that shows the placeholder instead of the broken image (once). */
export const fallBackTo =
  (placeholder: string) =>
  (e: Event): void => {
    const img = e.target as HTMLImageElement;
    if (img.src !== placeholder) img.src = placeholder;
  };
