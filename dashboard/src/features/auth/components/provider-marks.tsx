// The sign-in providers' marks, drawn here from the shapes their branding guidelines publish
// (no image requests, no third-party package): Google's "G" in its four colours, for use on a
// white or neutral button; Apple's apple, in the button's text colour (white on black). The
// geometry is ours: the G is four sectors of a ring (outer radius 20, inner 12 on a 48 grid) and
// the bar; the apple is a body with a bite and a leaf, in Bézier curves. Both are decorative:
// the button's text names the provider.

/** A decorative mark `size` px wide: its paths, [fill, d], on a square grid of `grid` units. */
function Mark({
  size,
  grid,
  paths,
}: {
  size: number;
  grid: number;
  paths: readonly (readonly [fill: string, d: string])[];
}) {
  return (
    <svg
      width={size}
      height={size}
      viewBox={`0 0 ${grid} ${grid}`}
      aria-hidden="true"
      focusable="false"
    >
      {paths.map(([fill, d]) => (
        <path key={d} fill={fill} d={d} />
      ))}
    </svg>
  );
}

/** Google's "G": four sectors of a ring and the bar, in its sign-in branding colours. */
const GOOGLE = [
  ['#EA4335', 'M7.62 12.53A20 20 0 0 1 38.86 10.62L32.92 15.97A12 12 0 0 0 14.17 17.12Z'],
  ['#FBBC05', 'M7.62 35.47A20 20 0 0 1 7.62 12.53L14.17 17.12A12 12 0 0 0 14.17 30.88Z'],
  ['#34A853', 'M38.86 37.38A20 20 0 0 1 7.62 35.47L14.17 30.88A12 12 0 0 0 32.92 32.03Z'],
  ['#4285F4', 'M44 24A20 20 0 0 1 38.86 37.38L32.92 32.03A12 12 0 0 0 36 24Z'],
  ['#4285F4', 'M24 20h20v8H24z'],
] as const;

/** Apple's apple, a body with a bite and a leaf, in the current text colour. */
const APPLE = [
  [
    'currentColor',
    'M12 7.3c-1.1 0-2.4-.8-3.8-.8C5.9 6.5 3.8 8.4 3.8 11.9c0 3.5 2.2 8.7 4.5 8.7 1.1 0 1.9-.7 3.7-.7s2.4.7 3.7.7c1.7 0 3.2-2.4 4.1-5-1.9-.8-2.9-2.4-2.9-4.2 0-1.6.9-2.8 2.1-3.5-1-1-2.4-1.4-3.4-1.4-1.4 0-2.5.8-3.6.8z',
  ],
  ['currentColor', 'M12.1 6.6c-.1-1.5 1.2-3.2 3.3-3.6.2 1.8-1.4 3.5-3.3 3.6z'],
] as const;

/** Google's "G" logo mark. */
export function GoogleMark({ size = 20 }: { size?: number }) {
  return <Mark size={size} grid={48} paths={GOOGLE} />;
}

/** Apple's logo, filled with the current text colour. */
export function AppleMark({ size = 20 }: { size?: number }) {
  return <Mark size={size} grid={24} paths={APPLE} />;
}
