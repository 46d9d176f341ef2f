// The plan history (spec): start, end, type, active or expired, blocks, emails, price; 10 rows a
// page, the next page when the scroll reaches 90% (or when the rows do not fill the screen), no
// more once a page comes back short. A "Show more" button does the same for keyboard users.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/errors';
import { HISTORY_PAGE_SIZE, listPlanHistory } from '../api/plans';
import { formatPlanDate, routePrice, rowBlocks, rowEmails, rowPrice, type PlanRow } from '../model/plans';
import { useLang } from '../model/use-lang';

const SCROLL_RATIO = 0.9;

function reachedEnd(): boolean {
  const box = document.scrollingElement ?? document.documentElement;
  if (box.scrollHeight <= 0 || box.clientHeight <= 0) return false;
  return box.scrollTop + box.clientHeight >= box.scrollHeight * SCROLL_RATIO;
}

/** Pages of the history; `reset` starts again from the first page (after a change). */
export function useHistory(key: string) {
  const [rows, setRows] = useState<PlanRow[]>([]);
  const [done, setDone] = useState(false);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // refs, not state, guard against double loads: scroll events arrive faster than renders
  const page = useRef(0);
  const busy = useRef(false);
  const finished = useRef(false);
  const generation = useRef(0);

  const loadMore = useCallback(async () => {
    if (busy.current || finished.current) return;
    busy.current = true;
    const mine = generation.current;
    setLoading(true);
    try {
      const next = await listPlanHistory(page.current);
      if (mine !== generation.current) return;
      page.current += 1;
      if (next.length < HISTORY_PAGE_SIZE) {
        finished.current = true;
        setDone(true);
      }
      setRows((r) => [...r, ...next.filter((n) => !r.some((x) => x.id === n.id))]);
      setError(null);
    } catch (cause) {
      if (mine === generation.current) setError(messageOf(cause));
    } finally {
      if (mine === generation.current) {
        busy.current = false;
        setLoading(false);
      }
    }
  }, []);

  useEffect(() => {
    generation.current += 1;
    page.current = 0;
    busy.current = false;
    finished.current = false;
    setRows([]);
    setDone(false);
    void loadMore();
  }, [key, loadMore]);

  useEffect(() => {
    const onScroll = () => {
      if (reachedEnd()) void loadMore();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [loadMore]);

  // rows that do not fill the screen cannot be scrolled to 90%: keep reading
  useEffect(() => {
    if (!loading && !done && rows.length > 0 && reachedEnd()) void loadMore();
  }, [rows, loading, done, loadMore]);

  return { rows, done, loading, error, loadMore };
}

export function HistoryTable({ history }: { history: ReturnType<typeof useHistory> }) {
  const { t } = useTranslation();
  const s = (key: string, o?: Record<string, unknown>) => t(`plans.history.${key}`, o);
  const { lang, fmt } = useLang();
  const { rows, done, loading, error, loadMore } = history;
  return (
    <section className="plan-history" aria-labelledby="plan-history-title">
      <h2 id="plan-history-title">{s('heading')}</h2>
      {error ? (
        <p className="error-text" role="alert">
          {t('plans.loadFailed', { reason: error })}
        </p>
      ) : null}
      {done && rows.length === 0 ? <p className="empty-state">{s('empty')}</p> : null}
      {rows.length > 0 ? (
        <div className="table-scroll" tabIndex={0} aria-labelledby="plan-history-title">
          <table className="plan-history-table">
            <caption className="visually-hidden">{s('caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{s('start')}</th>
                <th scope="col">{s('end')}</th>
                <th scope="col">{s('type')}</th>
                <th scope="col">{s('status')}</th>
                <th scope="col" className="num">
                  {s('blocks')}
                </th>
                <th scope="col" className="num">
                  {s('emails')}
                </th>
                <th scope="col" className="num">
                  {s('price')}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const price = rowPrice(row);
                const legacy = row.content?.planName && row.content.planName.startsWith('$');
                return (
                  <tr key={row.id}>
                    <td>{formatPlanDate(row.start_date)}</td>
                    <td>{row.end_date ? formatPlanDate(row.end_date) : '—'}</td>
                    <td>
                      {t(`plans.types.${row.type}`)}
                      {legacy ? <span className="hint"> ({row.content!.planName})</span> : null}
                    </td>
                    <td>
                      <span className={`status-chip ${row.is_active ? 'status-verified' : ''}`}>
                        {row.is_active ? s('active') : s('expired')}
                      </span>
                    </td>
                    <td className="num">{fmt(rowBlocks(row))}</td>
                    <td className="num">{fmt(rowEmails(row))}</td>
                    <td className="num">{price > 0 ? routePrice(price, row.method, lang) : s('free')}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      {loading ? (
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
