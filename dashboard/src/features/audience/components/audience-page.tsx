// /audience and /work/{id}/audience (spec: audience page): activated/deactivated, email only,
// groups (create, rename, delete; activated and deactivated are reserved), add audience, CSV
// import, the members 10 at a time (more at 90% scroll) in view or edit mode, delete visitor.
// Unpaid owners see their first 100 members (a display limit; see docs/dashboard.md) and no
// add, import or new group (the database refuses those too).
import { useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { IconButton } from '../../../components/ui/icon-button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CheckboxField } from '../../../components/ui/fields';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useSession } from '../../../lib/session';
import { usePagedQuery } from '../../../lib/use-paged-query';
import { useQuery } from '../../../lib/use-query';
import { useScrollStop } from '../../../lib/scroll-stop';
import { useScrollLoading } from '../../../lib/use-scroll-loading';
import { LETTER_LIMITS } from '@reaction-blocks/contracts/letters';
import {
  blockMemberCounts,
  confirmationUsage,
  createGroup,
  deleteGroup,
  deleteMember,
  listGroups,
  listMembers,
  renameGroup,
  audienceKeys,
  type GroupRow,
  type MemberQuery,
  type MemberRow,
} from '../api/audience';
import { AddAudienceDialog, CsvImportDialog, GroupNameDialog } from './audience-dialogs';
import { MemberRowView } from './member-row';
import { Pencil, X } from '../../../components/ui/icons';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorText } from '../../../components/ui/error-text';
import { Announcement } from '../../../components/ui/announcement';

const PAGE = LETTER_LIMITS.pageSize;

/** Two buttons, the shown one pressed: activated or deactivated members, view or edit mode. */
function TwoWays(props: {
  className: string;
  label: string;
  ways: [string, string];
  /** the second way is the one shown */
  second: boolean;
  onChange: (second: boolean) => void;
}) {
  return (
    <div className={props.className} role="group" aria-label={props.label}>
      {props.ways.map((way, i) => (
        <button
          key={way}
          type="button"
          className="button"
          aria-pressed={props.second === (i === 1)}
          onClick={() => props.onChange(i === 1)}
        >
          {way}
        </button>
      ))}
    </div>
  );
}

type DialogState =
  | { kind: 'add' }
  | { kind: 'import' }
  | { kind: 'newGroup' }
  | { kind: 'rename'; group: GroupRow }
  | { kind: 'deleteGroup'; group: GroupRow }
  | { kind: 'deleteMember'; member: MemberRow }
  | null;

export interface AudiencePageProps {
  /** Only the members who reacted to this block (/work/{id}/audience). */
  blockId?: string;
  blockName?: string;
}

export function AudiencePage({ blockId, blockName }: AudiencePageProps) {
  const { t } = useTranslation();
  const { user, profile } = useSession();
  const paid = profile?.paid === true;
  const [deactivated, setDeactivated] = useState(false);
  const [emailOnly, setEmailOnly] = useState(false);
  const [group, setGroup] = useState<string | null>(null);
  const [edit, setEdit] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const owner = user?.id ?? '';
  const queryClient = useQueryClient();
  const groupsQuery = useQuery(audienceKeys.groups(owner), (signal) => listGroups(signal));
  // visitor-typed addresses the plan's daily confirmation mails left unasked (not silently lost)
  const confirmations = useQuery(
    audienceKeys.confirmations(owner),
    (signal) => confirmationUsage(signal),
    { enabled: !!user },
  );
  const capped = confirmations.data?.capped ?? 0;
  const groups = useMemo(() => groupsQuery.data ?? [], [groupsQuery.data]);
  const custom = useMemo(
    () => groups.filter((g) => g.name !== 'activated' && g.name !== 'deactivated'),
    [groups],
  );
  // a block's page lists the members who reacted to it: its counts are theirs, read beside the
  // list, not the groups' own (the whole audience: "All members 296" beside an empty list)
  const names = custom.map((g) => g.name);
  const blockCounts = useQuery(
    [...audienceKeys.all(owner), 'block-counts', blockId, deactivated, names],
    (signal) => blockMemberCounts(blockId!, deactivated, names, signal),
    { enabled: !!user && !!blockId && groupsQuery.data !== undefined },
  );
  /** The count beside "All members" (null) or a group, as the list below reads them. */
  const countOf = (name: string | null): number | undefined =>
    blockId
      ? name === null
        ? blockCounts.data?.all
        : blockCounts.data?.groups[name]
      : groups.find((g) => g.name === (name ?? (deactivated ? 'deactivated' : 'activated')))?.count;
  const reloadCounts = () =>
    Promise.all([groupsQuery.reload(), blockId ? blockCounts.reload() : undefined]);
  const limit = paid ? Infinity : LETTER_LIMITS.freeAudienceRows;
  const filter = { deactivated, emailOnly, group, blockId };
  const list = usePagedQuery<MemberRow, MemberQuery['after'] | null>({
    queryKey: audienceKeys.members(owner, filter, limit),
    fetchPage: (after, signal) =>
      listMembers({ ...filter, after: after ?? undefined, limit: PAGE }, signal),
    initialPageParam: null,
    // a free plan shows the first `limit` members
    nextPageParam: (last, pages) =>
      pages.reduce((n, page) => n + page.length, 0) >= limit ? undefined : last.at(-1),
    pageSize: PAGE,
    enabled: !!user,
  });
  const members = list.status === 'loading' ? null : list.rows.slice(0, limit);
  const done = !list.hasMore || (members?.length ?? 0) >= limit;
  const error = list.error;
  const tableWrap = useRef<HTMLDivElement>(null);
  // the list's box: its scroller (above 480 px) and a Tab stop only while it scrolls
  const wrapRef = useScrollStop(tableWrap);
  useScrollLoading(
    tableWrap,
    !done && list.status === 'ready' && !error,
    list.loadMore,
    members?.length ?? 0,
  );

  const reloadAll = async () => {
    await queryClient.invalidateQueries({ queryKey: audienceKeys.all(owner) });
  };

  const atFreeLimit = !paid && (members?.length ?? 0) >= LETTER_LIMITS.freeAudienceRows;
  const title = blockId
    ? t('audience.titleOfBlock', { name: blockName || t('common.untitled') })
    : t('audience.title');

  return (
    <div className="audience-page">
      <div className="audience-head">
        <PageHeading>{title}</PageHeading>
        <TwoWays
          className="audience-state"
          label={t('audience.state')}
          ways={[t('audience.activated'), t('audience.deactivated')]}
          second={deactivated}
          onChange={setDeactivated}
        />
      </div>
      <div className="audience-body">
        <aside className="audience-side" aria-label={t('audience.groups')}>
          <div className="audience-side-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={!paid || !user}
              onClick={() => setDialog({ kind: 'add' })}
            >
              {t('audience.add')}
            </button>
            <button
              type="button"
              className="button"
              disabled={!paid || !user}
              onClick={() => setDialog({ kind: 'import' })}
            >
              {t('audience.import')}
            </button>
            {!paid ? (
              <p className="hint">
                {t('audience.paidOnly')} <Link to={paths.profilePlan}>{t('audience.upgrade')}</Link>
              </p>
            ) : null}
          </div>
          <h2 className="panel-title">{t('audience.groups')}</h2>
          <ul className="group-list">
            <li>
              <button
                type="button"
                className="group-item"
                aria-pressed={group === null}
                onClick={() => setGroup(null)}
              >
                {t('audience.allMembers')}
                <span className="group-count">{countOf(null) ?? ''}</span>
              </button>
            </li>
            {custom.map((g) => (
              <li key={g.id} className="group-row">
                <button
                  type="button"
                  className="group-item"
                  aria-pressed={group === g.name}
                  onClick={() => setGroup(g.name)}
                >
                  {g.name}
                  <span
                    className="group-count"
                    title={t('audience.groupCount', { count: countOf(g.name) ?? 0 })}
                  >
                    {countOf(g.name) ?? ''}
                  </span>
                </button>
                <IconButton
                  className="group-action"
                  label={t('audience.renameGroup', { name: g.name })}
                  onClick={() => setDialog({ kind: 'rename', group: g })}
                >
                  <Pencil size={15} />
                </IconButton>
                <IconButton
                  className="group-action"
                  label={t('audience.deleteGroup', { name: g.name })}
                  onClick={() => setDialog({ kind: 'deleteGroup', group: g })}
                >
                  <X size={15} />
                </IconButton>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="button button-ghost"
            disabled={!paid}
            onClick={() => setDialog({ kind: 'newGroup' })}
          >
            + {t('audience.createGroup')}
          </button>
          <CheckboxField
            label={t('audience.emailOnly')}
            checked={emailOnly}
            onChange={setEmailOnly}
            asSwitch
          />
          <TwoWays
            className="audience-mode"
            label={t('audience.mode')}
            ways={[t('audience.viewMode'), t('audience.editMode')]}
            second={edit}
            onChange={setEdit}
          />
        </aside>
        <section className="audience-main" aria-label={t('audience.list')}>
          <Announcement>{notice}</Announcement>
          {error ? <ErrorText>{t('audience.loadFailed', { reason: error })}</ErrorText> : null}
          {members === null ? (
            <Spinner />
          ) : members.length === 0 ? (
            <EmptyState picture="audience" title={t('audience.empty')}>
              {t('audience.emptyNext')}
            </EmptyState>
          ) : (
            <div
              ref={wrapRef}
              className="audience-table-wrap"
              role="region"
              aria-label={t('audience.table')}
            >
              <table className="audience-table">
                <thead>
                  <tr>
                    {(
                      [
                        'name',
                        'email',
                        'group',
                        'created',
                        'updated',
                        'events',
                        'state',
                        'actions',
                      ] as const
                    ).map((c) => (
                      <th key={c} scope="col">
                        {c === 'actions' ? (
                          <span className="visually-hidden">{t('audience.columns.actions')}</span>
                        ) : (
                          t(`audience.columns.${c}`)
                        )}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {members.map((m) => (
                    <MemberRowView
                      key={`${m.id}:${edit}`}
                      member={m}
                      edit={edit}
                      groups={custom.map((g) => g.name)}
                      paid={paid}
                      onDelete={(member) => setDialog({ kind: 'deleteMember', member })}
                      onSaving={() => setNotice(null)}
                      onSaved={(row) => {
                        setNotice(t('audience.saved'));
                        // a member whose state changed leaves this list
                        list.replace(row.id, row.deactivated !== deactivated ? null : row);
                        if (row.deactivated !== deactivated) {
                          // the other state's lists are read again when next shown
                          void queryClient.invalidateQueries({
                            queryKey: audienceKeys.members(owner),
                            refetchType: 'none',
                          });
                        }
                        void reloadCounts();
                      }}
                    />
                  ))}
                </tbody>
              </table>
              {!done ? <p className="hint">{t('audience.loadMore')}</p> : null}
            </div>
          )}
          {capped > 0 ? (
            <p className="notice audience-confirmations">
              {t('audience.confirmationsCapped', {
                count: capped,
                limit: confirmations.data?.limit ?? 0,
              })}
            </p>
          ) : null}
          {atFreeLimit ? (
            <p className="notice audience-limit">
              {t('audience.freeLimit', { count: LETTER_LIMITS.freeAudienceRows })}{' '}
              <Link to={paths.profilePlan} className="button button-primary">
                {t('audience.upgrade')}
              </Link>
            </p>
          ) : null}
        </section>
      </div>

      {dialog?.kind === 'add' && user ? (
        <AddAudienceDialog
          userId={user.id}
          groups={custom.map((g) => g.name)}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            void reloadAll();
          }}
        />
      ) : null}
      {dialog?.kind === 'import' && user ? (
        <CsvImportDialog
          userId={user.id}
          groups={custom.map((g) => g.name)}
          onClose={() => setDialog(null)}
          onDone={() => void reloadAll()}
        />
      ) : null}
      {dialog?.kind === 'newGroup' && user ? (
        <GroupNameDialog
          title={t('audience.createGroup')}
          initial=""
          existing={groups.map((g) => g.name)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await createGroup(user.id, name);
            setDialog(null);
            await groupsQuery.reload();
          }}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <GroupNameDialog
          title={t('audience.renameGroup', { name: dialog.group.name })}
          initial={dialog.group.name}
          existing={groups.map((g) => g.name)}
          onClose={() => setDialog(null)}
          onSubmit={async (name) => {
            await renameGroup(dialog.group.id, name);
            if (group === dialog.group.name) setGroup(name);
            setDialog(null);
            await reloadAll();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={dialog?.kind === 'deleteGroup'}
        title={
          dialog?.kind === 'deleteGroup'
            ? t('audience.groupDeleteTitle', { name: dialog.group.name })
            : ''
        }
        confirmLabel={t('audience.delete')}
        onCancel={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'deleteGroup') return;
          await deleteGroup(dialog.group.id);
          if (group === dialog.group.name) setGroup(null);
          setDialog(null);
          await reloadAll();
        }}
      >
        <p>{t('audience.groupDeleteText')}</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog?.kind === 'deleteMember'}
        title={t('audience.deleteTitle')}
        confirmLabel={t('audience.delete')}
        onCancel={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'deleteMember') return;
          await deleteMember(dialog.member.id);
          list.remove(dialog.member.id);
          setDialog(null);
          void reloadCounts();
        }}
      >
        <p>
          {dialog?.kind === 'deleteMember'
            ? t('audience.deleteText', {
                name: dialog.member.creator_name || t('audience.anonymous'),
              })
            : ''}
        </p>
      </ConfirmDialog>
    </div>
  );
}
