// The plan history (spec): start, end, type, active or expired, blocks, emails, price; 10 rows a
// page, the next page when the scroll reaches 90% (or when the rows do not fill the screen), no
// more once a page comes back short. A "Show more" button does the same for keyboard users.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../../lib/errors';
import { HISTORY_PAGE_SIZE, listPlanHistory } from '../api/plans';
import {
  formatPlanDate,
  routePrice,
  rowBlocks,
  rowEmails,
  rowPrice,
  type PlanRow,
} from '../model/plans';
import { useLang } from '../model/use-lang';

const SCROLL_RATIO = 0.9;

function reachedEnd(): boolean {
  const box = document.scrollingElement ?? document.documentElement;
  if (box.scrollHeight <= 0 || box.clientHeight <= 0) return false;
  return box.scrollTop + box.clientHeight >= box.scrollHeight * SCROLL_RATIO;
}

interface HistoryState {
  rows: PlanRow[];
  /** True once a page came back shorter than the page size. */
  done: boolean;
  loading: boolean;
  error: string | null;
}

const initial: HistoryState = { rows: [], done: false, loading: true, error: null };

/** Pages of the history; a new `key` starts again from the first page (after a change). */
export function useHistory(key: string) {
  const [state, setState] = useState<HistoryState>(initial);
  // refs, not state, guard against double loads: scroll events arrive faster than renders
  const page = useRef(0);
  const busy = useRef(false);
  const finished = useRef(false);
  const generation = useRef(0);

  const load = useCallback(async () => {
    if (busy.current || finished.current) return;
    busy.current = true;
    const mine = generation.current;
    setState((s) => ({ ...s, loading: true, error: null }));
    try {
      const next = await listPlanHistory(page.current);
      if (mine !== generation.current) return;
      page.current += 1;
      if (next.length < HISTORY_PAGE_SIZE) finished.current = true;
      setState((s) => {
        const known = new Set(s.rows.map((r) => r.id));
        return {
          rows: [...s.rows, ...next.filter((r) => !known.has(r.id))],
          done: finished.current,
          loading: false,
          error: null,
        };
      });
    } catch (cause) {
      if (mine !== generation.current) return;
      setState((s) => ({ ...s, loading: false, error: messageOf(cause) }));
    } finally {
      if (mine === generation.current) busy.current = false;
    }
  }, []);

  useEffect(() => {
    generation.current += 1;
    page.current = 0;
    busy.current = false;
    finished.current = false;
    setState(initial);
    void load();
  }, [key, load]);

  const canAutoLoad = !state.done && !state.loading && !state.error;
  useEffect(() => {
    if (!canAutoLoad) return;
    const onScroll = () => {
      if (reachedEnd()) void load();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [canAutoLoad, load]);

  // rows that do not fill the screen cannot be scrolled to 90%: keep reading
  useEffect(() => {
    if (canAutoLoad && state.rows.length > 0 && reachedEnd()) void load();
  }, [canAutoLoad, state.rows.length, load]);

  return { ...state, loadMore: load };
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
                    <td className="num">
                      {price > 0 ? routePrice(price, row.method, lang) : s('free')}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
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
