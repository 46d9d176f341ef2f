// A list of plain lines, each its own key: steps, terms, a plan's features (mostly a translated
// array, `t(key, { returnObjects: true })`).
export function TextList({
  lines,
  ordered = false,
  className,
}: {
  lines: readonly string[];
  /** Numbered (`ol`), where the order matters: steps, terms. */
  ordered?: boolean;
  className?: string;
}) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <List className={className}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </List>
  );
}
