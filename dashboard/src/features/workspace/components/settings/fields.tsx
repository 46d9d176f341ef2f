// Labelled form controls of the settings panel: every one has a visible label, shows its
// problem under it (announced through aria-describedby), and a paid-only one is disabled with
// the upgrade hint for owners without a paid plan.
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BLOCK_MESSAGES, MESSAGES } from '../../../../../../supabase/functions/_shared/schemas';
import { PaidHint } from '../paid-hint';

/** The schema's messages in the owner's language (the server words them the same in English). */
export function useFieldMessage() {
  const { t } = useTranslation();
  return (message: string | undefined): string | undefined => {
    if (!message) return undefined;
    switch (message) {
      case MESSAGES.tooLong:
        return t('workspace.errors.tooLong');
      case MESSAGES.invalidUrl:
        return t('workspace.errors.invalidUrl');
      case BLOCK_MESSAGES.invalidColor:
        return t('workspace.errors.invalidColor');
      case BLOCK_MESSAGES.invalidEmail:
        return t('workspace.errors.invalidEmail');
      default:
        return message;
    }
  };
}

interface Described {
  /** Disabled with the upgrade hint (a paid-only control for an owner without a plan). */
  locked?: boolean;
  hint?: ReactNode;
  error?: string;
}

function useDescription({ locked, hint, error }: Described) {
  const message = useFieldMessage()(error);
  const hintId = useId();
  const errorId = useId();
  const paidId = useId();
  const ids = [hint ? hintId : null, message ? errorId : null, locked ? paidId : null].filter(
    Boolean,
  );
  return {
    describedBy: ids.length > 0 ? ids.join(' ') : undefined,
    after: (
      <>
        {hint ? (
          <span id={hintId} className="hint">
            {hint}
          </span>
        ) : null}
        {message ? (
          <span id={errorId} className="error-text">
            {message}
          </span>
        ) : null}
        {locked ? <PaidHint id={paidId} /> : null}
      </>
    ),
    invalid: !!message,
  };
}

export function TextField({
  label,
  value,
  onChange,
  max,
  multiline = false,
  type = 'text',
  placeholder,
  ignoreLonger = false,
  ...described
}: Described & {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The spec's limit: counted on screen, longer input is refused by the schema. */
  max: number;
  /** Stop typing at the limit instead (spec, open graph: "longer input is ignored"). */
  ignoreLonger?: boolean;
  multiline?: boolean;
  type?: 'text' | 'url' | 'email';
  placeholder?: string;
}) {
  const id = useId();
  const { describedBy, after, invalid } = useDescription(described);
  const common = {
    id,
    value,
    disabled: described.locked,
    placeholder,
    maxLength: ignoreLonger ? max : undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={3} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(e) => onChange(e.target.value)} />
      )}
      <span className="field-count" aria-hidden="true">
        {value.length}/{max}
      </span>
      {after}
    </div>
  );
}

export function ToggleField({
  label,
  checked,
  onChange,
  ...described
}: Described & { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  const { describedBy, after } = useDescription(described);
  return (
    <div className="field field-toggle">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={described.locked}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {after}
    </div>
  );
}

export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  ...described
}: Described & {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  const { describedBy, after } = useDescription(described);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={described.locked}
        aria-describedby={describedBy}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {after}
    </div>
  );
}

/** #abc → #aabbcc: the colour input takes six digits only. */
function sixDigits(value: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return /^#[0-9a-f]{6}$/i.test(value) ? value : '#000000';
}

/** A colour: the picker and the hex text, both labelled, kept in step. */
export function ColorField({
  label,
  value,
  onChange,
  ...described
}: Described & { label: string; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const { describedBy, after, invalid } = useDescription(described);
  return (
    <div className="field field-color">
      <label htmlFor={id}>{label}</label>
      <div className="color-row">
        <input
          id={id}
          type="color"
          value={sixDigits(value)}
          disabled={described.locked}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
        />
        <input
          type="text"
          value={value}
          maxLength={7}
          disabled={described.locked}
          aria-label={t('workspace.fields.hexOf', { name: label })}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value.trim())}
        />
      </div>
      {after}
    </div>
  );
}
