import type { ReactNode } from 'react';
import { scrollStop } from '../../lib/scroll-stop';

/**
 * A table of rows in a scrolling region a keyboard can reach while it scrolls (lib/scroll-stop.ts),
 * named by its caption (read by screen readers, not shown). On a phone (base.css `.card-table`)
 * each row is a card and the header is hidden: each cell shows its column's name from
 * `data-label`, and the table's own CSS draws the cards. `columns` are the header row's cells (`className`: "num" right-aligns).
 * Without rows there is no table: `empty` is said instead (nothing while the rows are loading).
 */
export function CardTable<T>({
  className,
  caption,
  columns,
  rows,
  empty,
  children,
}: {
  className: string;
  caption: string;
  columns: { label: ReactNode; className?: string }[];
  rows: readonly T[];
  /** What there being no rows means; null while that is not known yet. */
  empty: string | null;
  /** One row's `<tr>`. */
  children: (row: T) => ReactNode;
}) {
  if (rows.length === 0) return empty ? <p className="empty-state">{empty}</p> : null;
  return (
    <div ref={scrollStop} className="table-scroll" role="region" aria-label={caption}>
      <table className={`card-table ${className}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={i} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.map((row) => children(row))}</tbody>
      </table>
    </div>
  );
}
