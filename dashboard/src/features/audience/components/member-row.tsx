// One member of the audience table: view mode (name, email, group, state, recent events) and
// edit mode (the fields, Save and Delete).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconButton } from '../../../components/ui/icon-button';
import { useSubmit } from '../../../lib/use-submit';
import { ZAudienceRow } from '@reaction-blocks/contracts/letters';
import { updateMember, type MemberRow } from '../api/audience';
import { audienceMessage, groupOptions, memberFailure } from './audience-dialogs';

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

/** An address with break chances before "@" and each dot, so a narrow column wraps it at
 *  its parts ("ada.lovelace" / "@example" / ".com") instead of mid-word. */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <span key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </span>
      ))}
    </>
  );
}

function EventChip({ event }: { event: AudienceEvent }) {
  const { t } = useTranslation();
  const type = event.type ?? '';
  const label = t(`blockTypes.${type}`, { defaultValue: type });
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

export function MemberRowView({
  member,
  edit,
  groups,
  onSaving,
  onSaved,
  onDelete,
  paid = true,
}: {
  member: MemberRow;
  edit: boolean;
  groups: string[];
  /** The owner can send letters to their audience: a typed address is asked to confirm. */
  paid?: boolean;
  /** A save starts: what the page said of an earlier one ("Saved.") no longer holds. */
  onSaving: () => void;
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
  const { busy, error, run } = useSubmit();
  const parsed = ZAudienceRow.safeParse({ ...draft, group: draft.group || null });
  const issue = (f: string) =>
    parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === f)?.message;
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);
  const name = member.creator_name || t('audience.anonymous');
  /** The name or the email being edited, its problem (if any) as its title. */
  const cellInput = (field: 'name' | 'email') => (
    <input
      className="cell-input"
      type={field === 'email' ? 'email' : undefined}
      value={draft[field]}
      aria-label={t(`audience.columns.${field}`)}
      aria-invalid={issue(field) ? true : undefined}
      title={audienceMessage(t, issue(field))}
      onChange={(e) => setDraft({ ...draft, [field]: e.target.value })}
    />
  );
  const cellSelect = (
    column: 'group' | 'state',
    value: string,
    options: { value: string; label: string }[],
    onChange: (value: string) => void,
  ) => (
    <select
      className="cell-input"
      value={value}
      aria-label={t(`audience.columns.${column}`)}
      onChange={(e) => onChange(e.target.value)}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
  const { recent, first } = recentEvents(member);

  const save = async () => {
    if (!parsed.success) return;
    const { name, email, group, deactivated } = parsed.data;
    onSaving();
    await run(
      async () => {
        const row = await updateMember(member.id, {
          creator_name: name,
          email: email || null,
          group_name: group,
          deactivated,
        });
        onSaved(row);
      },
      (cause) => memberFailure(t, cause),
    );
  };

  return (
    <tr data-testid="audience-row">
      <td data-label={t('audience.columns.name')}>
        {edit ? (
          cellInput('name')
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
      <td data-label={t('audience.columns.email')}>
        {edit ? (
          cellInput('email')
        ) : (
          <span className="member-email">
            <EmailText email={member.email ?? ''} />
          </span>
        )}
      </td>
      <td data-label={t('audience.columns.group')}>
        {edit
          ? cellSelect('group', draft.group, groupOptions(t, groups), (group) =>
              setDraft({ ...draft, group }),
            )
          : (member.group_name ?? '')}
      </td>
      <td data-label={t('audience.columns.created')} className="member-date">
        {shortDate(member.created_at)}
      </td>
      <td data-label={t('audience.columns.updated')} className="member-date">
        {shortDate(member.last_updated)}
      </td>
      <td data-label={t('audience.columns.events')}>
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
      <td data-label={t('audience.columns.state')} className="member-state">
        {edit ? (
          cellSelect(
            'state',
            draft.deactivated ? 'true' : 'false',
            [
              { value: 'false', label: t('audience.active') },
              { value: 'true', label: t('audience.inactive') },
            ],
            (value) => setDraft({ ...draft, deactivated: value === 'true' }),
          )
        ) : member.deactivated ? (
          t('audience.inactive')
        ) : member.is_unsubscribed ? (
          // active, but letters skip the address: said, not hidden behind "Active"
          <span title={t('audience.unsubscribedHint')}>{t('audience.unsubscribed')}</span>
        ) : member.awaiting_confirmation ? (
          // a visitor typed the address: letters skip it until it confirms (double opt-in); an
          // unpaid owner's is not asked yet (docs/data-model.md, "A typed address is asked ...")
          <span title={t(paid ? 'audience.awaitingHint' : 'audience.awaitingUnpaidHint')}>
            {t('audience.awaiting')}
          </span>
        ) : (
          t('audience.active')
        )}
      </td>
      <td data-label={t('audience.columns.actions')} className="member-actions">
        {/* one line: the cell's text wraps (audience.css), the two buttons never */}
        <div className="member-action-buttons">
          {edit ? (
            <button
              type="button"
              className="button"
              disabled={!changed || !parsed.success || busy}
              onClick={() => void save()}
              // a list of buttons reads "Save Ann", as Delete's (rev-owner D6); the shown word stays
              aria-label={t('audience.saveRowNamed', { name })}
            >
              {t('audience.saveRow')}
            </button>
          ) : null}
          <IconButton label={t('audience.deleteRow', { name })} onClick={() => onDelete(member)}>
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
              <path
                d="M6 2h4l1 1h3v1.5H2V3h3l1-1zm-2.5 4h9l-.7 8.2a1 1 0 0 1-1 .8H5.2a1 1 0 0 1-1-.8L3.5 6z"
                fill="currentColor"
              />
            </svg>
          </IconButton>
        </div>
        {error ? (
          <span className="error-text" role="alert">
            {error}
          </span>
        ) : null}
      </td>
    </tr>
  );
}
