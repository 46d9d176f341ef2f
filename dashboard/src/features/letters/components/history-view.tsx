// /work/{id}/history for letters (spec: letter history): a 320 px list of sends (subject and
// date, 10 at a time, more at 90% scroll), the selected letter as sent in a sandboxed frame that
// runs no script, and its delivery counts, which the provider's events keep moving, with why
// mails were not sent (the provider's refusal, or the rule that skipped them).
import { formatDate } from '../../../lib/dates';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { DELIVERY_STATUSES } from '@reaction-blocks/contracts/enums';
import { DELIVERY_SKIP_REASONS } from '@reaction-blocks/contracts/letters';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { useScrollLoading } from '../../../lib/use-scroll-loading';
import type { PublishRow } from '../api/letters';
import { useLetterHistory, useNotSentReasons } from '../api/queries';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorText } from '../../../components/ui/error-text';

/** A send's counts, one per delivery state (the database's delivery_status). */
const COUNTS = DELIVERY_STATUSES;

/** The stored letter in our shell; sandboxed without scripts, links open in a new tab. */
export function letterSrcDoc(html: string | null): string {
  return `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: http:; style-src 'unsafe-inline'"><base target="_blank"><style>body{margin:0;background:#f4f4f4}</style></head><body><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 0">${html ?? ''}</td></tr></table></body></html>`;
}

const SKIP_KEYS = new Map(
  Object.entries(DELIVERY_SKIP_REASONS).map(([key, reason]) => [reason as string, key]),
);

/** The reasons mails of one send were not sent, read again as its counts move. */
function NotSent({ ownerId, publish }: { ownerId: string; publish: PublishRow }) {
  const { t } = useTranslation();
  const notSent = publish.failed_count + publish.skipped_count;
  const reasons = useNotSentReasons(ownerId, publish.id, notSent).data ?? [];
  if (notSent === 0 || reasons.length === 0) return null;
  return (
    <section className="history-not-sent" aria-label={t('letters.history.notSent')}>
      <h3>{t('letters.history.notSent')}</h3>
      <ul>
        {reasons.map(({ status, reason }) => {
          const skip = status === 'skipped' ? SKIP_KEYS.get(reason) : undefined;
          return (
            <li key={`${status}:${reason}`}>
              {skip ? (
                t(`letters.history.skip.${skip}`)
              ) : status === 'failed' && /not verified/i.test(reason) ? (
                <>
                  {t('letters.history.notVerified')}{' '}
                  <Link to={paths.profileEmail}>{t('letters.history.senderPage')}</Link>
                </>
              ) : (
                t('letters.history.failedBecause', { reason })
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

export function HistoryView({ blockId }: { blockId: string }) {
  const { t } = useTranslation();
  const sentTo = (p: PublishRow) =>
    p.trigger_block_id
      ? t('letters.history.automatic', { form: p.trigger_block?.name || t('common.untitled') })
      : p.group_name === 'activated'
        ? t('letters.history.everyone')
        : p.group_name
          ? t('letters.history.group', { group: p.group_name })
          : t('letters.history.manual');
  const { user } = useSession();
  const history = useLetterHistory(user?.id ?? '', blockId);
  const { rows, status, hasMore, loadMore } = history;
  const error = history.error;
  const items = status === 'loading' && rows.length === 0 ? null : rows;
  const loadingMore = status === 'loadingMore';
  const [selected, setSelected] = useState<string | null>(null);
  const list = useRef<HTMLElement>(null);
  useScrollLoading(list, hasMore && status === 'ready' && !error, loadMore, rows.length);

  const current = useMemo(
    () => items?.find((p) => p.id === selected) ?? items?.[0] ?? null,
    [items, selected],
  );

  if (items === null) return <Spinner />;
  if (items.length === 0) {
    return (
      <div className="history-empty">
        <EmptyState picture="letters" title={t('letters.history.empty')}>
          {t('letters.history.emptyNext')}
        </EmptyState>
        {error ? <ErrorText>{t('letters.history.loadFailed', { reason: error })}</ErrorText> : null}
      </div>
    );
  }

  return (
    <div className="history">
      <nav className="history-list" aria-label={t('letters.history.label')} ref={list}>
        <ul>
          {items.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                className="history-item"
                aria-current={current?.id === p.id ? 'true' : undefined}
                onClick={() => setSelected(p.id)}
              >
                <span className="history-subject">{p.subject || t('common.untitled')}</span>
                <span className="history-date">
                  <time dateTime={p.created_at}>
                    {formatDate(p.created_at, { time: 'minutes' })}
                  </time>
                  {' · '}
                  {sentTo(p)}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {loadingMore ? <p className="hint">{t('letters.history.more')}</p> : null}
      </nav>
      {current ? (
        <section className="history-detail" aria-label={current.subject}>
          <h2 className="history-detail-title">{current.subject || t('common.untitled')}</h2>
          <dl className="history-counts" aria-label={t('letters.history.counts')}>
            {COUNTS.map((key) => (
              <div key={key} className="history-count" data-count={key}>
                <dt>{t(`letters.history.${key}`)}</dt>
                <dd>{current[`${key}_count`]}</dd>
              </div>
            ))}
          </dl>
          <NotSent key={current.id} ownerId={user?.id ?? ''} publish={current} />
          <iframe
            className="history-frame"
            title={t('letters.history.frame', { subject: current.subject })}
            sandbox="allow-popups allow-popups-to-escape-sandbox"
            srcDoc={letterSrcDoc(current.html)}
          />
        </section>
      ) : null}
    </div>
  );
}
