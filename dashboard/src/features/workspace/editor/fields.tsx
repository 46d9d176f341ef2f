// Labelled inputs of the editor: a text field with a length counter and an error line, a
// checkbox, and the upgrade hint of paid-only controls.
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The schema's limit: the counter shows it and the input refuses longer text. */
  max: number;
  multiline?: boolean;
  error?: string | undefined;
  hint?: ReactNode;
  placeholder?: string | undefined;
  type?: 'text' | 'url';
  disabled?: boolean;
}

export function TextField({
  label,
  value,
  onChange,
  max,
  multiline = false,
  error,
  hint,
  placeholder,
  type = 'text',
  disabled,
}: TextFieldProps) {
  const id = useId();
  const describedBy =
    [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    value,
    maxLength: max,
    placeholder,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className="field editor-field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={4} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(event) => onChange(event.target.value)} />
      )}
      <span className="field-count" aria-hidden="true">
        {value.length}/{max}
      </span>
      {hint ? (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${id}-error`} className="error-text">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export interface CheckboxFieldProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  /** Id of a hint (e.g. the upgrade hint) read with the checkbox. */
  describedBy?: string | undefined;
}

export function CheckboxField({
  label,
  checked,
  onChange,
  disabled,
  describedBy,
}: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className="checkbox-row">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** "Paid plan feature. Upgrade" with the link to /profile/plan (spec section 6). */
export function UpgradeHint({ id, text }: { id?: string; text?: string }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="editor-upgrade-hint">
      {text ?? t('editor.paidFeature')} <Link to={paths.profilePlan}>{t('editor.upgrade')}</Link>
    </p>
  );
}
