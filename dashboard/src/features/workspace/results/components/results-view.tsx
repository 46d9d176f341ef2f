// /work/{id}/result: the block's responses, newest first, 10 at a time. More load when the
// scroll reaches 90% of the list (or when the list does not fill its scroll area yet), and
// with the "Load more" button for keyboard and screen-reader users.
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../../components/ui/spinner';
import { useScrollLoading } from '../../../../lib/use-scroll-loading';
import { failureReason } from '../../../../lib/errors';
import { QuotaError, useApproveResponses } from '../api/approve-responses';
import { useDeleteResponse } from '../api/delete-response';
import { supabaseResultsApi, type ResultsApi } from '../api/results-api';
import { useResponses } from '../hooks/use-responses';
import { useResultsSummary } from '../hooks/use-results-summary';
import type { ResponseRow, ResultsBlock, ResultsQuestion } from '../types';
import { DeleteResponseDialog } from './delete-response-dialog';
import { ResultRow } from './result-row';
import { ResultsSummary } from './results-summary';
import { EmptyState } from '../../../../components/ui/empty-state';
import { ErrorText } from '../../../../components/ui/error-text';

export interface ResultsViewProps {
  block: ResultsBlock;
  questions: readonly ResultsQuestion[];
  /**
   * The data calls; the Supabase ones unless a test or a story passes others. Keep it the same
   * object across renders: a new one starts the list over.
   */
  api?: ResultsApi;
  /** Told after a response was deleted, e.g. to lower a response count shown elsewhere. */
  onDeleted?: (row: ResponseRow) => void;
  /** The block's "+ N responses" when the results were opened (shown in the summary). */
  newSinceLastVisit?: number;
}

export function ResultsView({
  block,
  questions,
  api = supabaseResultsApi,
  onDeleted,
  newSinceLastVisit,
}: ResultsViewProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const root = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { rows, status, hasMore, error, loadMore, remove } = useResponses(block.id, api);
  // the count the summary shows (read again after a delete or an approval), not the block's
  // count from when the workspace opened: responses keep arriving while it is open
  const total = useResultsSummary(block.id, api).data?.totals.responses;
  const [target, setTarget] = useState<ResponseRow | null>(null);
  // held responses approved here: no longer marked (the list is read again the next time it is shown)
  const [approved, setApproved] = useState<ReadonlySet<string>>(() => new Set());
  const [approveError, setApproveError] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const canAutoLoad = hasMore && status === 'ready' && !error;

  useScrollLoading(root, canAutoLoad, loadMore, rows.length);

  const deleteResponse = useDeleteResponse(block.id, api.deleteResponse);
  const confirmDelete = useCallback(
    async (row: ResponseRow) => {
      await deleteResponse.mutateAsync(row);
      remove(row.id);
      setTarget(null);
      setAnnouncement(t('results.deleted'));
      // The row (and its Delete button, the dialog's opener) is gone: land on the heading.
      heading.current?.focus();
      onDeleted?.(row);
    },
    [deleteResponse, remove, t, onDeleted],
  );

  const approveResponse = useApproveResponses(block.id, api.approveResponses);
  const approve = useCallback(
    (row: ResponseRow) => {
      setAnnouncement('');
      setApproveError('');
      approveResponse.mutate(
        { ids: [row.id] },
        {
          onSuccess: () => {
            setApproved((ids) => new Set(ids).add(row.id));
            setAnnouncement(t('results.held.approved'));
          },
          onError: (cause) =>
            setApproveError(
              cause instanceof QuotaError
                ? t('results.held.quota', { left: cause.left, approving: cause.approving })
                : t('results.held.error', { message: failureReason(cause) }),
            ),
        },
      );
    },
    [approveResponse, t],
  );
  const approvingId = approveResponse.isPending ? approveResponse.variables?.ids[0] : undefined;

  const list = useMemo(
    () =>
      rows.map((row) => (
        <ResultRow
          key={row.id}
          row={approved.has(row.id) ? { ...row, held: false } : row}
          questions={questions}
          onDelete={(r) => {
            setAnnouncement('');
            setTarget(r);
          }}
          onApprove={approve}
          approving={approvingId === row.id}
        />
      )),
    [rows, questions, approved, approve, approvingId],
  );

  const initialLoading = status === 'loading' && rows.length === 0;

  return (
    <div className="results" ref={root}>
      <ResultsSummary block={block} api={api} newSinceLastVisit={newSinceLastVisit} />
      <section className="results-rows" aria-labelledby={headingId} aria-busy={status !== 'ready'}>
        <h2 className="results-heading" id={headingId} ref={heading} tabIndex={-1}>
          {total === undefined ? t('results.title') : t('results.count', { count: total })}
        </h2>
        <p className="visually-hidden" role="status">
          {announcement}
        </p>
        <ErrorText>{approveError}</ErrorText>
        {initialLoading ? <Spinner label={t('results.loading')} /> : null}
        {!initialLoading && rows.length === 0 && !error ? (
          <EmptyState picture="results" title={t('results.empty')}>
            {t('results.emptyHint')}
          </EmptyState>
        ) : null}
        {rows.length > 0 ? <ul className="results-list">{list}</ul> : null}
        {error ? (
          <div className="results-error" role="alert">
            <p className="error-text">{t('results.loadError', { message: error })}</p>
            <button type="button" className="button" onClick={() => void loadMore()}>
              {t('common.retry')}
            </button>
          </div>
        ) : null}
        {status === 'loadingMore' ? <Spinner label={t('results.loadingMore')} /> : null}
        {rows.length > 0 && hasMore && !error ? (
          <button
            type="button"
            className="button results-more"
            onClick={() => void loadMore()}
            disabled={status !== 'ready'}
          >
            {t('results.loadMore')}
          </button>
        ) : null}
        {rows.length > 0 && !hasMore ? (
          <p className="hint results-end">{t('results.allShown')}</p>
        ) : null}
        <DeleteResponseDialog
          key={target?.id ?? 'none'}
          row={target}
          onClose={() => setTarget(null)}
          onConfirm={confirmDelete}
        />
      </section>
    </div>
  );
}
