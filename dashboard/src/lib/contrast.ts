// WCAG contrast of two colours, on the SDK's luminance (its avatars' ink uses it): one formula
// for both apps (the dashboard's tokens test, the theme panel's notes).
import { luminance } from '../../../sdk/src/components/comment/avatar';

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The contrast ratio of two #rgb / #rrggbb colours (1 to 21); NaN when either is not one. */
export function contrast(a: string, b: string): number {
  if (!HEX.test(a) || !HEX.test(b)) return NaN;
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
