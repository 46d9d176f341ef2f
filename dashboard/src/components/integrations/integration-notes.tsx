// What an integration could not do, as the owner reads it (the workspace's Integration section,
// /profile/integration): one line per note in the owner's language, how often and when, and a
// button to dismiss it; useNoteDismissal is the dismissing both places do.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../lib/dates';
import type { IntegrationNote } from '../../lib/integrations';
import { integrationReason } from './texts';

export function noteText(
  t: (key: string, options?: Record<string, unknown>) => string,
  note: IntegrationNote,
): string {
  const detail = note.detail as Record<string, string | undefined>;
  if (note.code === 'column_type') {
    const options = {
      property: note.property,
      columnType: detail.column_type ?? '?',
      field: detail.field ?? '?',
      valueKind: t(`integrations.kinds.${detail.value_kind ?? 'text'}`),
      message: detail.message ?? '',
    };
    if (detail.reason === 'read_only') return t('integrations.notes.columnReadOnly', options);
    if (detail.reason === 'format') return t('integrations.notes.columnFormat', options);
    if (detail.reason === 'rejected') return t('integrations.notes.columnRejected', options);
    return t('integrations.notes.column_type', options);
  }
  return t(`integrations.notes.${note.code}`, {
    message: detail.message ?? detail.reason ?? '',
    mall: detail.mall_id ?? '',
  });
}

export interface IntegrationNotesProps {
  notes: readonly IntegrationNote[];
  onDismiss: (note: IntegrationNote) => void;
  /** Ids of notes being dismissed (their button is disabled). */
  busy?: ReadonlySet<string>;
}

export function IntegrationNotes({ notes, onDismiss, busy }: IntegrationNotesProps) {
  const { t } = useTranslation();
  if (notes.length === 0) return null;
  return (
    <ul className="integration-notes" aria-label={t('integrations.notes.title')}>
      {notes.map((note) => (
        <li key={note.id} className="integration-note" data-code={note.code}>
          <p className="integration-note-text">{noteText(t, note)}</p>
          <p className="hint">
            {t('integrations.notes.times', {
              count: note.count,
              date: formatDate(note.last_at, { time: 'minutes' }),
            })}
          </p>
          <button
            type="button"
            className="button button-ghost"
            disabled={busy?.has(note.id)}
            aria-label={
              note.property
                ? t('integrations.notes.dismissNamed', { name: note.property })
                : undefined
            }
            onClick={() => onDismiss(note)}
          >
            {t('integrations.notes.dismiss')}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * Dismissing notes: the ids under way (their buttons disabled), the note taken out of the screen's
 * data once the server has it, and a failure as the owner reads it.
 */
export function useNoteDismissal<T extends { notes: IntegrationNote[] }>({
  dismiss,
  setData,
  onFailed,
}: {
  dismiss: (id: string) => Promise<void>;
  /** The screen's data holding the notes (useQuery's setData). */
  setData: (update: (data: T | undefined) => T | undefined) => void;
  onFailed: (message: string) => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const onDismiss = async (note: IntegrationNote) => {
    setBusy((d) => new Set(d).add(note.id));
    try {
      await dismiss(note.id);
      setData((d) => d && { ...d, notes: d.notes.filter((n) => n.id !== note.id) });
    } catch (cause) {
      onFailed(t('integrations.failed', { reason: integrationReason(t, cause) }));
    } finally {
      setBusy((d) => {
        const next = new Set(d);
        next.delete(note.id);
        return next;
      });
    }
  };
  return { busy, onDismiss: (note: IntegrationNote) => void onDismiss(note) };
}

/** Notion's mark (a plain N in a rounded square), drawn here: no remote image. */
export function NotionMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 28 28" aria-hidden="true" className="notion-mark">
      <rect x="1" y="1" width="26" height="26" rx="5" fill="#fff" stroke="#111" strokeWidth="2" />
      <path d="M9 20V8.5h1.6l7 8.3V8h1.9v11.7h-1.5L11 11.4V20z" fill="#111" />
    </svg>
  );
}
