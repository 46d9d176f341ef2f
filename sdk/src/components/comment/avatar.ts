// A writer's avatar without a photo, drawn here (no request leaves the page): their initial on
// their colour (the profile's, sent with each message). The initial is white, or near-black on a
// colour too light for white, whichever reads at 4.5:1 or more (WCAG AA): old messages may carry
// any colour, not only the profile palette (core/identity.ts).

/** WCAG relative luminance of #rgb or #rrggbb. */
export function luminance(hex: string): number {
  const h = hex.length < 7 ? hex.replace(/\w/g, '$&$&') : hex;
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(h.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The avatar's inline style: the writer's colour (grey when it is not a colour) and its ink. */
export function avatarStyle(color: string | undefined | null): string {
  const bg = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color || '') ? color! : '#5e5e66';
  // white reads at 4.5:1 down to luminance 0.183; below that black reads at 4.5:1 or more
  const ink = luminance(bg) > 0.183 ? '#000' : '#fff';
  return `background:${bg};color:${ink}`;
}
