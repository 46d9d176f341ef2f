// /work/{id}/comments: the owner moderates a comment or Q&A block. Every message and reply, newest
// first, with its writer, time and state; filters (all, held, hidden, pinned, resolved for Q&A,
// reported) and search; per message and in bulk: approve, hide, show again, pin, resolve,
// delete; block a writer from the block. Live: new messages appear as they arrive (announced).
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog';
import { PageForm } from '../../../../components/ui/page-form';
import { Spinner } from '../../../../components/ui/spinner';
import { failureReason } from '../../../../lib/errors';
import { formatTime } from '../../results/components/result-row';
import { ResponseAvatar } from '../../results/components/response-avatar';
import {
  MODERATE_AT_ONCE,
  MODERATION_FILTERS,
  supabaseModerationApi,
  type ModerationAction,
  type ModerationApi,
  type ModerationMessage,
} from '../api';
import { useModeration } from '../hooks/use-moderation';
import { EmptyState } from '../../../../components/ui/empty-state';
import { ErrorText } from '../../../../components/ui/error-text';
import { DangerButton } from '../../../../components/ui/danger-button';

export interface ModerationViewProps {
  block: { id: string; type: 'comment' | 'qna'; name: string; owner_id: string };
  /** The server calls; the Supabase ones unless a test passes others. Keep it the same object. */
  api?: ModerationApi;
}

export function ModerationView({ block, api = supabaseModerationApi }: ModerationViewProps) {
  const { t } = useTranslation();
  const headingId = useId();
  const searchId = useId();
  const [announcement, setAnnouncement] = useState('');
  const m = useModeration(block.id, api, (count) =>
    setAnnouncement(t('moderation.arrived', { count })),
  );
  const [query, setQuery] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string[] | null>(null);
  const [blocking, setBlocking] = useState<ModerationMessage | null>(null);
  const [hideToo, setHideToo] = useState(false);
  const qna = block.type === 'qna';
  const mode = t(`moderation.mode.${block.type}`);
  const filters = MODERATION_FILTERS.filter((f) => f !== 'resolved' || qna);
  const selectedIds = m.rows.filter((r) => m.selected.has(r.id)).map((r) => r.id);
  const allSelected = m.rows.length > 0 && selectedIds.length === m.rows.length;

  /**
   * A refused call in the reader's language: every PT404 here means the block is no longer the
   * signed-in owner's (moderation_messages, block_writer) or, for moderate_messages, a message
   * deleted meanwhile; anything else through failureReason, never the server's English.
   */
  const reasonOf = (cause: unknown, gone: 'blockGone' | 'messageGone') =>
    failureReason(cause, {
      PT404: gone === 'blockGone' ? 'common.reasons.blockGone' : 'moderation.reasons.messageGone',
    });
  const failed = (cause: unknown, gone: 'blockGone' | 'messageGone') =>
    t('moderation.failed', { message: reasonOf(cause, gone) });
  /** More messages chosen than one call takes: says so (nothing is sent) and answers true. */
  const tooMany = (ids: readonly string[]) => {
    const over = ids.length > MODERATE_AT_ONCE;
    if (over)
      setFailure(
        t('moderation.failed', {
          message: t('moderation.reasons.tooMany', { max: MODERATE_AT_ONCE }),
        }),
      );
    return over;
  };

  const run = async (ids: string[], action: ModerationAction) => {
    setFailure(null);
    setAnnouncement('');
    if (tooMany(ids)) return;
    try {
      await m.act(ids, action);
      setAnnouncement(t(`moderation.done.${action}`, { count: ids.length }));
    } catch (cause) {
      setFailure(failed(cause, 'messageGone'));
    }
  };

  const remove = (ids: string[]) => {
    setFailure(null);
    if (!tooMany(ids)) setDeleting(ids);
  };

  const setBlocked = async (message: ModerationMessage, blocked: boolean, hide = false) => {
    setFailure(null);
    setAnnouncement('');
    await m.setWriterBlocked(message.creator_id, blocked, hide);
    setAnnouncement(
      t(blocked ? 'moderation.done.block' : 'moderation.done.unblock', {
        name: writerName(message),
      }),
    );
  };

  const writerName = (message: ModerationMessage) =>
    message.creator_name.trim() ||
    (message.writer_anonymous ? t('moderation.states.anonymous') : t('common.untitled'));

  const initialLoading = m.status === 'loading' && m.rows.length === 0;
  // top-level messages only for pin and resolve
  const selectedTop = m.rows.filter((r) => m.selected.has(r.id) && !r.parent_id).map((r) => r.id);

  return (
    <section className="moderation" aria-labelledby={headingId} aria-busy={m.status !== 'ready'}>
      <h2 className="moderation-heading" id={headingId}>
        {t('moderation.heading', { mode, name: block.name || t('common.untitled') })}
      </h2>
      <p className="hint" data-live={m.live}>
        {t(
          m.live === 'live'
            ? 'moderation.live'
            : m.live === 'off'
              ? 'moderation.liveOff'
              : 'moderation.liveConnecting',
        )}
      </p>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>

      <div className="moderation-toolbar">
        <fieldset className="moderation-filters">
          <legend className="visually-hidden">{t('moderation.filters.label')}</legend>
          {filters.map((f) => (
            <label key={f} className="moderation-filter" data-active={m.filter === f || undefined}>
              <input
                type="radio"
                name={`moderation-filter-${block.id}`}
                value={f}
                checked={m.filter === f}
                onChange={() => m.setFilter(f)}
              />
              {t(`moderation.filters.${f}`)}
            </label>
          ))}
        </fieldset>
        <PageForm
          role="search"
          className="moderation-search"
          onSubmit={() => m.setSearch(query.trim())}
        >
          <label htmlFor={searchId} className="visually-hidden">
            {t('moderation.search')}
          </label>
          <input
            id={searchId}
            type="search"
            value={query}
            maxLength={200}
            placeholder={t('moderation.search')}
            onChange={(event) => setQuery(event.target.value)}
          />
          <button type="submit" className="button">
            {t('moderation.searchButton')}
          </button>
          {m.search ? (
            <button
              type="button"
              className="button button-ghost"
              onClick={() => {
                setQuery('');
                m.setSearch('');
              }}
            >
              {t('moderation.clearSearch')}
            </button>
          ) : null}
        </PageForm>
      </div>

      {m.rows.length > 0 ? (
        <div className="moderation-bulk" role="group" aria-label={t('moderation.bulkLabel')}>
          <label className="moderation-select-all">
            <input
              type="checkbox"
              checked={allSelected}
              ref={(el) => {
                if (el) el.indeterminate = selectedIds.length > 0 && !allSelected;
              }}
              onChange={(event) => m.selectAll(event.target.checked)}
            />
            {t('moderation.selectAll')}
          </label>
          {selectedIds.length > 0 ? (
            <>
              <span className="moderation-count">
                {t('moderation.selected', { count: selectedIds.length })}
              </span>
              <button type="button" className="button" onClick={() => run(selectedIds, 'approve')}>
                {t('moderation.actions.approve')}
              </button>
              <button type="button" className="button" onClick={() => run(selectedIds, 'hide')}>
                {t('moderation.actions.hide')}
              </button>
              <button type="button" className="button" onClick={() => run(selectedIds, 'unhide')}>
                {t('moderation.actions.unhide')}
              </button>
              {qna && selectedTop.length === selectedIds.length ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => run(selectedIds, 'resolve')}
                >
                  {t('moderation.actions.resolve')}
                </button>
              ) : null}
              <DangerButton onClick={() => remove(selectedIds)}>
                {t('moderation.actions.delete')}
              </DangerButton>
            </>
          ) : null}
        </div>
      ) : null}

      <ErrorText>{failure}</ErrorText>
      {initialLoading ? <Spinner label={t('moderation.loading')} /> : null}
      {!initialLoading && m.rows.length === 0 && !m.error ? (
        m.search ? (
          <EmptyState picture="search" title={t('moderation.emptySearch', { query: m.search })} />
        ) : (
          <EmptyState picture="messages" title={t('moderation.empty')}>
            {t('moderation.emptyNext')}
          </EmptyState>
        )
      ) : null}
      {m.rows.length > 0 ? (
        <ul className="moderation-list">
          {m.rows.map((message) => (
            <ModerationRow
              key={message.id}
              message={message}
              qna={qna}
              ownerId={block.owner_id}
              name={writerName(message)}
              selected={m.selected.has(message.id)}
              onToggle={() => m.toggle(message.id)}
              onAct={(action) =>
                action === 'delete' ? remove([message.id]) : run([message.id], action)
              }
              onBlock={() => {
                if (message.writer_blocked) {
                  void setBlocked(message, false).catch((cause: unknown) =>
                    setFailure(failed(cause, 'blockGone')),
                  );
                } else {
                  setHideToo(false);
                  setBlocking(message);
                }
              }}
            />
          ))}
        </ul>
      ) : null}
      {m.error ? (
        <div role="alert">
          <p className="error-text">
            {t('moderation.loadFailed', { message: reasonOf(m.error, 'blockGone') })}
          </p>
          <button type="button" className="button" onClick={() => void m.retry()}>
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {m.status === 'loadingMore' ? <Spinner label={t('moderation.loading')} /> : null}
      {m.rows.length > 0 && m.hasMore && !m.error ? (
        <button
          type="button"
          className="button moderation-more"
          disabled={m.status !== 'ready'}
          onClick={() => void m.loadMore()}
        >
          {t('moderation.loadMore')}
        </button>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title={t('moderation.confirmDelete.title', { count: deleting?.length ?? 1 })}
        confirmLabel={t('moderation.confirmDelete.confirm')}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          const ids = deleting ?? [];
          await m.act(ids, 'delete');
          setDeleting(null);
          setAnnouncement(t('moderation.done.delete', { count: ids.length }));
        }}
        errorText={(cause) => failed(cause, 'messageGone')}
      >
        <p>{t('moderation.confirmDelete.text')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={blocking !== null}
        title={t('moderation.confirmBlock.title', { name: blocking ? writerName(blocking) : '' })}
        confirmLabel={t('moderation.confirmBlock.confirm')}
        onCancel={() => setBlocking(null)}
        onConfirm={async () => {
          if (blocking) await setBlocked(blocking, true, hideToo);
          setBlocking(null);
        }}
        errorText={(cause) => failed(cause, 'blockGone')}
      >
        <p>{t('moderation.confirmBlock.text')}</p>
        <label className="moderation-hide-too">
          <input
            type="checkbox"
            checked={hideToo}
            onChange={(event) => setHideToo(event.target.checked)}
          />
          {t('moderation.confirmBlock.hide')}
        </label>
      </ConfirmDialog>
    </section>
  );
}

interface ModerationRowProps {
  message: ModerationMessage;
  qna: boolean;
  ownerId: string;
  name: string;
  selected: boolean;
  onToggle: () => void;
  onAct: (action: ModerationAction) => void;
  onBlock: () => void;
}

function ModerationRow({
  message,
  qna,
  ownerId,
  name,
  selected,
  onToggle,
  onAct,
  onBlock,
}: ModerationRowProps) {
  const { t } = useTranslation();
  const top = !message.parent_id;
  const mine = message.creator_id === ownerId;
  const action = (key: ModerationAction, label = key) => (
    <button
      type="button"
      className={key === 'delete' ? 'button button-ghost moderation-delete' : 'button button-ghost'}
      onClick={() => onAct(key)}
    >
      {t(`moderation.actions.${label}`)}
    </button>
  );
  return (
    <li className="moderation-row" data-status={message.status} data-testid="moderation-row">
      <input
        type="checkbox"
        className="moderation-check"
        checked={selected}
        onChange={onToggle}
        aria-label={t('moderation.select', { name })}
      />
      <ResponseAvatar name={name} photoUrl={message.creator_photo_url} color={message.color} />
      <div className="moderation-body">
        <p className="moderation-meta">
          <strong className="moderation-name">{name}</strong>
          <span className="moderation-badge">
            {mine
              ? t('moderation.states.owner')
              : message.writer_anonymous
                ? t('moderation.states.anonymous')
                : t('moderation.states.signedIn')}
          </span>
          {message.writer_blocked ? (
            <span className="moderation-badge moderation-badge-danger">
              {t('moderation.states.blocked')}
            </span>
          ) : null}
          {message.imitates_owner ? (
            <span className="moderation-badge moderation-badge-warn">
              {t('moderation.states.imitates')}
            </span>
          ) : null}
          <time className="moderation-time" dateTime={message.created_at}>
            {formatTime(message.created_at)}
          </time>
        </p>
        <p className="moderation-states">
          {message.status === 'held' && message.held_by === 'escalation' ? (
            <span
              className="moderation-state moderation-state-held"
              title={t('moderation.states.heldByEscalationText')}
            >
              {t('moderation.states.heldByEscalation')}
              <span className="visually-hidden">
                {' '}
                {t('moderation.states.heldByEscalationText')}
              </span>
            </span>
          ) : message.status !== 'published' ? (
            <span className={`moderation-state moderation-state-${message.status}`}>
              {t(`moderation.states.${message.status}`)}
            </span>
          ) : null}
          {message.pinned_at ? (
            <span className="moderation-state">{t('moderation.states.pinned')}</span>
          ) : null}
          {qna && message.resolved ? (
            <span className="moderation-state">{t('moderation.states.resolved')}</span>
          ) : null}
          {message.is_edited ? (
            <span className="moderation-state">{t('moderation.states.edited')}</span>
          ) : null}
          {message.page_key ? (
            <span className="moderation-state" title={message.page_key}>
              {/^cafe24:product:\d+$/.test(message.page_key)
                ? t('moderation.states.product', { no: message.page_key.slice(15) })
                : t('moderation.states.page', { page: message.page_key })}
            </span>
          ) : null}
        </p>
        {message.parent ? (
          <p className="moderation-parent">
            {t('moderation.states.reply', { name: message.parent.creator_name || '?' })}: “
            {message.parent.content}”
          </p>
        ) : null}
        <p className="moderation-content">{message.content}</p>
        {message.report_count > 0 ? (
          <details className="moderation-reports">
            <summary>{t('moderation.states.reports', { count: message.report_count })}</summary>
            <ul>
              {message.reports.map((r, i) => (
                <li key={i}>
                  {r.reason
                    ? t('moderation.states.reportReason', { reason: r.reason })
                    : t('moderation.states.noReason')}{' '}
                  <time className="moderation-time" dateTime={r.created_at}>
                    {formatTime(r.created_at)}
                  </time>
                </li>
              ))}
            </ul>
          </details>
        ) : null}
        {message.creator_email ? (
          <p className="hint">{t('moderation.states.email', { email: message.creator_email })}</p>
        ) : null}
        <div
          className="moderation-actions"
          role="group"
          aria-label={t('moderation.actions.more', { name })}
        >
          {message.status === 'held' ? action('approve') : null}
          {message.status === 'hidden' ? action('unhide') : action('hide')}
          {top ? (message.pinned_at ? action('unpin') : action('pin')) : null}
          {qna && top ? (message.resolved ? action('unresolve') : action('resolve')) : null}
          {action('delete')}
          {mine ? null : (
            <button type="button" className="button button-ghost" onClick={onBlock}>
              {t(
                message.writer_blocked ? 'moderation.actions.unblock' : 'moderation.actions.block',
              )}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}
