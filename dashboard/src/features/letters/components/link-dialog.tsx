// The call-to-action link modal and the image-button modal: one dialog with two or three fields.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/fields';
import {
  isLetterLink,
  LETTER_LIMITS,
} from '../../../../../supabase/functions/_shared/letter-schemas';

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

function problem(
  field: LinkField,
  value: string,
  invalid: string,
  required: string,
): string | undefined {
  if (value.trim() === '') return required;
  if (field.max && value.length > field.max) return 'Too long message';
  if (field.kind === 'link' && !isLetterLink(value.trim())) return invalid;
  if (field.kind === 'image' && !/^https:\/\/\S+$/i.test(value.trim())) return invalid;
  return undefined;
}

export function LinkDialog({ title, fields, onApply, onRemove, onClose }: LinkDialogProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() =>
    Object.fromEntries(fields.map((f) => [f.key, f.value])),
  );
  const [tried, setTried] = useState(false);
  const errors = Object.fromEntries(
    fields.map((f) => [
      f.key,
      problem(
        f,
        values[f.key] ?? '',
        t('letters.linkDialog.invalid'),
        t('letters.linkDialog.required'),
      ),
    ]),
  );
  const valid = Object.values(errors).every((e) => !e);
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      actions={
        <>
          {onRemove ? (
            <button type="button" className="button button-ghost" onClick={onRemove}>
              {t('letters.linkDialog.remove')}
            </button>
          ) : null}
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={() => {
              setTried(true);
              if (!valid) return;
              onApply(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])));
            }}
          >
            {t('letters.linkDialog.save')}
          </button>
        </>
      }
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
    </Dialog>
  );
}
