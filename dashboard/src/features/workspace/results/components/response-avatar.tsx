// A respondent's picture: their photo, a neutral placeholder when the photo fails to load, or,
// without a photo, the visitor identity the SDK gives anonymous writers (colour and initial).
import { useState } from 'react';

// Neutral head-and-shoulders drawing, inline so the fallback itself can never fail to load.
export const PLACEHOLDER_AVATAR =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" fill="#d8dce2"/><circle cx="20" cy="15" r="7" fill="#8a919c"/><path d="M6 38c1-8 7-12 14-12s13 4 14 12z" fill="#8a919c"/></svg>',
  );

const FALLBACK_COLOR = '#5c636e';

/** Only http(s) pictures are shown; anything else is treated as no photo. */
export function safePhotoUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

export function ResponseAvatar({
  name,
  photoUrl,
  color,
}: {
  name: string;
  photoUrl: string | null;
  color: string | null;
}) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const src = safePhotoUrl(photoUrl);
  if (src) {
    return (
      <img
        className="result-avatar"
        src={failedSrc === src ? PLACEHOLDER_AVATAR : src}
        alt=""
        width={40}
        height={40}
        loading="lazy"
        referrerPolicy="no-referrer"
        data-fallback={failedSrc === src}
        onError={() => setFailedSrc(src)}
      />
    );
  }
  const background = color && /^#[0-9a-f]{6}$/i.test(color) ? color : FALLBACK_COLOR;
  return (
    <span className="result-avatar result-avatar-initial" aria-hidden="true" style={{ background }}>
      {Array.from(name.trim())[0]?.toUpperCase() ?? '?'}
    </span>
  );
}
