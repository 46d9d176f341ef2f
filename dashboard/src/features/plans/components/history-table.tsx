// The plan history (spec): start, end, type, active or expired, blocks, emails, price; 10 rows a
// page, the next page when the scroll reaches 90% (or when the rows do not fill the screen), no
// more once a page comes back short. A "Show more" button does the same for keyboard users.
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useScrollLoading } from '../../../lib/use-scroll-loading';
import type { usePlanHistory } from '../api/queries';
import { formatPlanDate, routePrice, rowBlocks, rowEmails, rowPrice } from '../model/plans';
import { useLang } from '../model/use-lang';
import { CardTable } from '../../../components/ui/card-table';
import { ErrorText } from '../../../components/ui/error-text';

export function HistoryTable({ history }: { history: ReturnType<typeof usePlanHistory> }) {
  const { t } = useTranslation();
  const { t: s } = useTranslation(undefined, { keyPrefix: 'plans.history' });
  const { lang, fmt } = useLang();
  const { rows, hasMore, status, error, loadMore } = history;
  const done = !hasMore;
  const loading = status !== 'ready';
  const root = useRef<HTMLElement>(null);
  useScrollLoading(root, hasMore && !loading && !error, loadMore, rows.length);
  return (
    <section className="plan-history" aria-labelledby="plan-history-title" ref={root}>
      <h2 id="plan-history-title">{s('heading')}</h2>
      {error ? <ErrorText>{t('plans.loadFailed', { reason: error })}</ErrorText> : null}
      <CardTable
        className="plan-history-table"
        caption={s('caption')}
        rows={rows}
        empty={done ? s('empty') : null}
        columns={[
          { label: s('start') },
          { label: s('end') },
          { label: s('type') },
          { label: s('status') },
          { label: s('blocks'), className: 'num' },
          { label: s('emails'), className: 'num' },
          { label: s('price'), className: 'num' },
        ]}
      >
        {(row) => {
          const price = rowPrice(row);
          const legacy = row.content?.planName && row.content.planName.startsWith('$');
          return (
            <tr key={row.id}>
              <td data-label={s('start')}>{formatPlanDate(row.start_date)}</td>
              <td data-label={s('end')}>{row.end_date ? formatPlanDate(row.end_date) : '—'}</td>
              <td data-label={s('type')}>
                {t(`plans.types.${row.type}`)}
                {legacy ? <span className="hint"> ({row.content!.planName})</span> : null}
              </td>
              <td data-label={s('status')}>
                <span className={`status-chip ${row.is_active ? 'status-verified' : ''}`}>
                  {row.is_active ? s('active') : s('expired')}
                </span>
              </td>
              <td className="num" data-label={s('blocks')}>
                {fmt(rowBlocks(row))}
              </td>
              <td className="num" data-label={s('emails')}>
                {fmt(rowEmails(row))}
              </td>
              <td className="num" data-label={s('price')}>
                {price > 0 ? routePrice(price, row.method, lang) : s('free')}
              </td>
            </tr>
          );
        }}
      </CardTable>
      {loading && rows.length > 0 ? (
        <p className="hint" role="status">
          {s('loading')}
        </p>
      ) : !done && rows.length > 0 ? (
        <button type="button" className="button" onClick={() => void loadMore()}>
          {s('more')}
        </button>
      ) : null}
    </section>
  );
}
