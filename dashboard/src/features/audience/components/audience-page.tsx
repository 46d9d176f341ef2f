// /audience and /work/{id}/audience (spec: audience page): activated/deactivated, email only,
// groups (create, rename, delete; activated and deactivated are reserved), add audience, CSV
// import, the members 10 at a time (more at 90% scroll) in view or edit mode, delete visitor.
// Unpaid owners see their first 100 members (a display limit; see docs/dashboard.md) and no
// add, import or new group (the database refuses those too).
import { useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CheckboxField } from '../../../components/ui/fields';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { messageOf } from '../../../lib/errors';
import { useSession } from '../../../lib/session';
import { useQuery } from '../../../lib/use-query';
import { isReactionType } from '../../../lib/db-types';
import { LETTER_LIMITS, ZAudienceRow } from '@reaction-blocks/contracts/letters';
import {
  createGroup,
  deleteGroup,
  deleteMember,
  listGroups,
  listMembers,
  renameGroup,
  updateMember,
  type GroupRow,
  type MemberRow,
} from '../api/audience';
import {
  AddAudienceDialog,
  audienceMessage,
  CsvImportDialog,
  GroupNameDialog,
} from './audience-dialogs';

const PAGE = LETTER_LIMITS.pageSize;

/** YY.MM.DD */
function shortDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getFullYear() % 100)}.${two(d.getMonth() + 1)}.${two(d.getDate())}`;
}

interface AudienceEvent {
  id?: string;
  type?: string;
  created_at?: string;
}

/** Recent events: the five newest, then the first one after an ellipsis (spec section 9). */
export function recentEvents(member: Pick<MemberRow, 'history' | 'first_event'>): {
  recent: AudienceEvent[];
  first: AudienceEvent | null;
} {
  const history = (Array.isArray(member.history) ? member.history : []) as AudienceEvent[];
  const recent = history.slice(-5).reverse();
  const first = (member.first_event as AudienceEvent | null) ?? history[0] ?? null;
  const shown = first && history.length > 5 ? first : null;
  return { recent, first: shown };
}

function EventChip({ event }: { event: AudienceEvent }) {
  const { t } = useTranslation();
  const type = event.type ?? '';
  const label = isReactionType(type)
    ? t(`audience.eventTypes.${type}`)
    : t(`blockTypes.${type}`, { defaultValue: type });
  return (
    <span className="event-chip" title={event.created_at}>
      {label} {shortDate(event.created_at)}
    </span>
  );
}

interface RowDraft {
  name: string;
  email: string;
  group: string;
  deactivated: boolean;
}

function MemberRowView({
  member,
  edit,
  groups,
  onSaved,
  onDelete,
}: {
  member: MemberRow;
  edit: boolean;
  groups: string[];
  onSaved: (row: MemberRow) => void;
  onDelete: (row: MemberRow) => void;
}) {
  const { t } = useTranslation();
  const initial: RowDraft = {
    name: member.creator_name,
    email: member.email ?? '',
    group: member.group_name ?? '',
    deactivated: member.deactivated,
  };
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const parsed = ZAudienceRow.safeParse({ ...draft, group: draft.group || null });
  const issue = (f: string) =>
    parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === f)?.message;
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);
  const name = member.creator_name || t('audience.anonymous');
  const { recent, first } = recentEvents(member);

  const save = async () => {
    if (!parsed.success) return;
    setBusy(true);
    setError(null);
    try {
      const row = await updateMember(member.id, {
        creator_name: parsed.data.name,
        email: parsed.data.email || null,
        group_name: parsed.data.group,
        deactivated: parsed.data.deactivated,
      });
      onSaved(row);
    } catch (cause) {
      setError(messageOf(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <tr data-testid="audience-row">
      <td>
        {edit ? (
          <input
            className="cell-input"
            value={draft.name}
            aria-label={t('audience.columns.name')}
            aria-invalid={issue('name') ? true : undefined}
            title={audienceMessage(t, issue('name'))}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          />
        ) : (
          <span className="member-name">
            <span
              className="member-dot"
              style={{ background: member.color ?? '#bbb' }}
              aria-hidden="true"
            />
            {name}
          </span>
        )}
      </td>
      <td>
        {edit ? (
          <input
            className="cell-input"
            type="email"
            value={draft.email}
            aria-label={t('audience.columns.email')}
            aria-invalid={issue('email') ? true : undefined}
            title={audienceMessage(t, issue('email'))}
            onChange={(e) => setDraft({ ...draft, email: e.target.value })}
          />
        ) : (
          <span className="member-email">{member.email ?? ''}</span>
        )}
      </td>
      <td>
        {edit ? (
          <select
            className="cell-input"
            value={draft.group}
            aria-label={t('audience.columns.group')}
            onChange={(e) => setDraft({ ...draft, group: e.target.value })}
          >
            <option value="">{t('audience.noGroup')}</option>
            {groups.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        ) : (
          (member.group_name ?? '')
        )}
      </td>
      <td>{shortDate(member.created_at)}</td>
      <td>{shortDate(member.last_updated)}</td>
      <td>
        <div className="member-events">
          {recent.map((e, i) => (
            <EventChip key={i} event={e} />
          ))}
          {first ? (
            <>
              <span aria-hidden="true">…</span>
              <EventChip event={first} />
            </>
          ) : null}
        </div>
      </td>
      <td>
        {edit ? (
          <select
            className="cell-input"
            value={draft.deactivated ? 'true' : 'false'}
            aria-label={t('audience.columns.state')}
            onChange={(e) => setDraft({ ...draft, deactivated: e.target.value === 'true' })}
          >
            <option value="false">{t('audience.active')}</option>
            <option value="true">{t('audience.inactive')}</option>
          </select>
        ) : member.deactivated ? (
          t('audience.inactive')
        ) : (
          t('audience.active')
        )}
      </td>
      <td className="member-actions">
        {edit ? (
          <button
            type="button"
            className="button"
            disabled={!changed || !parsed.success || busy}
            onClick={() => void save()}
          >
            {t('audience.saveRow')}
          </button>
        ) : null}
        <button
          type="button"
          className="button button-ghost"
          aria-label={t('audience.deleteRow', { name })}
          title={t('audience.deleteRow', { name })}
          onClick={() => onDelete(member)}
        >
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
            <path
              d="M6 2h4l1 1h3v1.5H2V3h3l1-1zm-2.5 4h9l-.7 8.2a1 1 0 0 1-1 .8H5.2a1 1 0 0 1-1-.8L3.5 6z"
              fill="currentColor"
            />
          </svg>
        </button>
        {error ? (
          <span className="error-text" role="alert">
            {error}
          </span>
        ) : null}
      </td>
    </tr>
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
  const [members, setMembers] = useState<MemberRow[] | null>(null);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogState>(null);
  const groupsQuery = useQuery(['audience', user?.id ?? '', 'groups'], listGroups);
  const groups = useMemo(() => groupsQuery.data ?? [], [groupsQuery.data]);
  const custom = useMemo(
    () => groups.filter((g) => g.name !== 'activated' && g.name !== 'deactivated'),
    [groups],
  );
  const busy = useRef(false);
  const filterKey = `${deactivated}:${emailOnly}:${group ?? ''}:${blockId ?? ''}`;
  const limit = paid ? Infinity : LETTER_LIMITS.freeAudienceRows;

  const load = useCallback(
    async (reset: boolean, current: MemberRow[] | null) => {
      if (busy.current) return;
      busy.current = true;
      try {
        const shown = reset ? 0 : (current?.length ?? 0);
        const page = await listMembers({
          deactivated,
          emailOnly,
          group,
          blockId,
          before: reset ? undefined : current?.at(-1)?.created_at,
          limit: Math.min(PAGE, limit - shown),
        });
        setMembers((old) => (reset || !old ? page : [...old, ...page]));
        setDone(page.length < PAGE || shown + page.length >= limit);
        setError(null);
      } catch (cause) {
        setError(messageOf(cause));
        setMembers((old) => old ?? []);
      } finally {
        busy.current = false;
      }
    },
    [deactivated, emailOnly, group, blockId, limit],
  );

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a new filter starts again
    setMembers(null);
    void load(true, null);
  }, [filterKey, load]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const box = event.currentTarget;
    if (!done && box.scrollTop + box.clientHeight >= box.scrollHeight * 0.9)
      void load(false, members);
  };
  // a page that does not fill the box has no scroll: load the next one at once
  useEffect(() => {
    const box = document.querySelector<HTMLDivElement>('.audience-table-wrap');
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loads the next page (async)
    if (members && !done && box && box.scrollHeight <= box.clientHeight) void load(false, members);
  }, [members, done, load]);

  const reloadAll = async () => {
    await groupsQuery.reload();
    setMembers(null);
    await load(true, null);
  };

  const atFreeLimit = !paid && (members?.length ?? 0) >= LETTER_LIMITS.freeAudienceRows;
  const title = blockId
    ? t('audience.titleOfBlock', { name: blockName || t('common.untitled') })
    : t('audience.title');

  return (
    <div className="audience-page">
      <div className="audience-head">
        <PageHeading>{title}</PageHeading>
        <div className="audience-state" role="group" aria-label={t('audience.state')}>
          <button
            type="button"
            className="button"
            aria-pressed={!deactivated}
            onClick={() => setDeactivated(false)}
          >
            {t('audience.activated')}
          </button>
          <button
            type="button"
            className="button"
            aria-pressed={deactivated}
            onClick={() => setDeactivated(true)}
          >
            {t('audience.deactivated')}
          </button>
        </div>
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
                <span className="group-count">
                  {groups.find((g) => g.name === (deactivated ? 'deactivated' : 'activated'))
                    ?.count ?? ''}
                </span>
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
                    title={t('audience.groupCount', { count: g.count })}
                  >
                    {g.count}
                  </span>
                </button>
                <button
                  type="button"
                  className="button button-ghost group-action"
                  aria-label={t('audience.renameGroup', { name: g.name })}
                  title={t('audience.renameGroup', { name: g.name })}
                  onClick={() => setDialog({ kind: 'rename', group: g })}
                >
                  <span aria-hidden="true">✎</span>
                </button>
                <button
                  type="button"
                  className="button button-ghost group-action"
                  aria-label={t('audience.deleteGroup', { name: g.name })}
                  title={t('audience.deleteGroup', { name: g.name })}
                  onClick={() => setDialog({ kind: 'deleteGroup', group: g })}
                >
                  <span aria-hidden="true">✕</span>
                </button>
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
          <div className="audience-mode" role="group" aria-label={t('audience.mode')}>
            <button
              type="button"
              className="button"
              aria-pressed={!edit}
              onClick={() => setEdit(false)}
            >
              {t('audience.viewMode')}
            </button>
            <button
              type="button"
              className="button"
              aria-pressed={edit}
              onClick={() => setEdit(true)}
            >
              {t('audience.editMode')}
            </button>
          </div>
        </aside>
        <section className="audience-main" aria-label={t('audience.list')}>
          {notice ? (
            <p className="notice" role="status">
              {notice}
            </p>
          ) : null}
          {error ? (
            <p className="error-text" role="alert">
              {t('audience.loadFailed', { reason: error })}
            </p>
          ) : null}
          {members === null ? (
            <Spinner label={t('common.loading')} />
          ) : members.length === 0 ? (
            <p className="audience-empty">{t('audience.empty')}</p>
          ) : (
            <div
              className="audience-table-wrap"
              onScroll={onScroll}
              tabIndex={0}
              aria-label={t('audience.list')}
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
                      onDelete={(member) => setDialog({ kind: 'deleteMember', member })}
                      onSaved={(row) => {
                        setNotice(t('audience.saved'));
                        // a member whose state changed leaves this list
                        setMembers((old) =>
                          (old ?? []).flatMap((x) =>
                            x.id !== row.id ? [x] : row.deactivated !== deactivated ? [] : [row],
                          ),
                        );
                        void groupsQuery.reload();
                      }}
                    />
                  ))}
                </tbody>
              </table>
              {!done ? <p className="hint">{t('audience.loadMore')}</p> : null}
            </div>
          )}
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
        cancelLabel={t('common.cancel')}
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
        cancelLabel={t('common.cancel')}
        confirmLabel={t('audience.delete')}
        onCancel={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'deleteMember') return;
          await deleteMember(dialog.member.id);
          setMembers((old) => (old ?? []).filter((m) => m.id !== dialog.member.id));
          setDialog(null);
          void groupsQuery.reload();
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
