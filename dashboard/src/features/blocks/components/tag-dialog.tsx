import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { DialogActions } from '../../../components/ui/form-dialog';
import type { UserTagRow } from '../../../lib/db-types';
import { blockFailure } from '../utils/block-utils';
import { useSubmit } from '../../../lib/use-submit';
import { ErrorText } from '../../../components/ui/error-text';
import { CheckboxField, TextField } from '../../../components/ui/fields';

export interface TagDialogProps {
  open: boolean;
  blockName: string;
  initial: readonly string[];
  tags: readonly UserTagRow[];
  onCreateTag: (label: string) => Promise<void>;
  onSave: (tags: string[]) => Promise<void>;
  onClose: () => void;
}

export function TagDialog({
  open,
  blockName,
  initial,
  tags,
  onCreateTag,
  onSave,
  onClose,
}: TagDialogProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string[]>([...initial]);
  const [label, setLabel] = useState('');
  const { busy, error, run } = useSubmit();
  const guard = (work: () => Promise<void>) =>
    void run(work, (cause) => t('blocks.actionError', { message: blockFailure(cause, t) }));

  const add = (event: FormEvent) => {
    event.preventDefault();
    const value = label.trim();
    if (!value) return;
    guard(async () => {
      if (!tags.some((tag) => tag.label === value)) await onCreateTag(value);
      setChosen((list) => (list.includes(value) ? list : [...list, value]));
      setLabel('');
    });
  };

  return (
    <Dialog
      open={open}
      title={t('blocks.tagDialog.title')}
      onClose={onClose}
      actions={
        <DialogActions
          onCancel={onClose}
          submitLabel={t('common.save')}
          busy={busy}
          onSubmit={() =>
            guard(async () => {
              await onSave(chosen);
              onClose();
            })
          }
        />
      }
    >
      <p>{t('blocks.tagDialog.text', { name: blockName })}</p>
      {tags.length === 0 ? <p>{t('blocks.tagDialog.none')}</p> : null}
      <fieldset className="tag-options">
        <legend className="visually-hidden">{t('shell.tags')}</legend>
        {tags.map((tag) => (
          <CheckboxField
            key={tag.id}
            label={tag.label}
            checked={chosen.includes(tag.label)}
            onChange={(checked) =>
              setChosen((list) =>
                checked ? [...list, tag.label] : list.filter((item) => item !== tag.label),
              )
            }
          />
        ))}
      </fieldset>
      <form className="tag-add" onSubmit={add}>
        <TextField
          label={t('blocks.tagDialog.newTag')}
          value={label}
          max={50}
          onChange={setLabel}
        />
        <button type="submit" className="button button-ghost" disabled={busy || !label.trim()}>
          {t('blocks.tagDialog.add')}
        </button>
      </form>
      <ErrorText>{error}</ErrorText>
    </Dialog>
  );
}
