// The call-to-action link modal and the image-button modal: one dialog with two or three fields.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/form-dialog';
import { TextField } from '../../../components/ui/fields';
import { isLetterLink, LETTER_LIMITS } from '@reaction-blocks/contracts/letters';

export interface LinkField {
  key: string;
  label: string;
  value: string;
  max?: number;
  /** Checked as a link (http, https, mailto); https only for images. */
  kind: 'text' | 'link' | 'image';
  placeholder?: string;
}

export interface LinkDialogProps {
  title: string;
  fields: LinkField[];
  onApply: (values: Record<string, string>) => void;
  onRemove?: () => void;
  onClose: () => void;
}

/** What is wrong with a field's value, as a key of the messages below; undefined when fine. */
function problem(field: LinkField, value: string): 'required' | 'tooLong' | 'invalid' | undefined {
  if (value.trim() === '') return 'required';
  if (field.max && value.length > field.max) return 'tooLong';
  if (field.kind === 'link' && !isLetterLink(value.trim())) return 'invalid';
  if (field.kind === 'image' && !/^https:\/\/\S+$/i.test(value.trim())) return 'invalid';
  return undefined;
}

export function LinkDialog({ title, fields, onApply, onRemove, onClose }: LinkDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() =>
    Object.fromEntries(fields.map((f) => [f.key, f.value])),
  );
  const [tried, setTried] = useState(false);
  const message = {
    required: t('letters.linkDialog.required'),
    tooLong: t('common.tooLong'),
    invalid: t('letters.linkDialog.invalid'),
  };
  const errors = Object.fromEntries(
    fields.map((f) => {
      const key = problem(f, values[f.key] ?? '');
      return [f.key, key && message[key]];
    }),
  );
  const valid = Object.values(errors).every((e) => !e);
  return (
    <FormDialog
      title={title}
      onClose={onClose}
      submitLabel={t('letters.linkDialog.save')}
      before={
        onRemove ? (
          <button type="button" className="button button-ghost" onClick={onRemove}>
            {t('letters.linkDialog.remove')}
          </button>
        ) : null
      }
      onSubmit={() => {
        // the action stays enabled: a first try shows what is missing
        setTried(true);
        if (!valid) return;
        onApply(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])));
      }}
    >
      {fields.map((f) => (
        <TextField
          key={f.key}
          label={f.label}
          value={values[f.key] ?? ''}
          max={f.max ?? LETTER_LIMITS.url}
          type={f.kind === 'text' ? 'text' : 'url'}
          placeholder={f.placeholder}
          error={tried ? errors[f.key] : undefined}
          onChange={(v) => setValues((old) => ({ ...old, [f.key]: v }))}
        />
      ))}
    </FormDialog>
  );
}
