// The offer of unsaved edits kept in this tab from before a sign-out or a reload
// (lib/kept-draft.ts): the reaction workspace's and the letter workspace's, each saying what.
import { useTranslation } from 'react-i18next';
import type { KeptDraft } from '../../lib/kept-draft';

export function WorkspaceKeptNotice({ kept, text }: { kept: KeptDraft; text: string }) {
  const { t } = useTranslation();
  if (!kept.offered) return null;
  return (
    <div className="notice workspace-kept" role="status">
      <p>{text}</p>
      <div className="workspace-kept-actions">
        <button type="button" className="button button-primary" onClick={() => kept.answer(true)}>
          {t('shell.kept.restore')}
        </button>
        <button type="button" className="button" onClick={() => kept.answer(false)}>
          {t('shell.kept.discard')}
        </button>
      </div>
    </div>
  );
}
