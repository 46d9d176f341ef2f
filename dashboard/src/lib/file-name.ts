// Download file names built from a block name the owner typed (the QR code PNG, the results CSV).

/** Longest name part kept, in characters (code points, so Korean counts one a syllable). */
const MAX_LENGTH = 100;

/**
 * The block name made safe as part of a file name on Windows, macOS and Linux: characters
 * those systems refuse (`<>:"/\|?*` and control characters) become `_`, leading and trailing
 * dots and spaces go, and the result is at most 100 characters. Letters of any script (Korean
 * too) and inner spaces are kept. An empty result is "Untitled", the database's default name.
 */
export function safeFileNamePart(name: string | null | undefined): string {
  const cleaned = Array.from(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what we remove
    (name ?? '').normalize('NFC').replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_'),
  )
    .slice(0, MAX_LENGTH)
    .join('')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  return cleaned || 'Untitled';
}
