// Labelled form controls: each has a visible label tied to it, and its hint and error under it
// are read with it (aria-describedby); an error marks it invalid. Texts come in the reader's
// language. A feature adds more to read with a control (a paid-plan hint, say) through
// `describedBy` and `children`, which are rendered after the hint and the error.
import { useId, type ReactNode } from 'react';

export interface FieldDescription {
  /** Help under the control. */
  hint?: ReactNode;
  /** The problem with the value; marks the control invalid. */
  error?: string | undefined;
  /** Marks the control invalid when the problem is said elsewhere (e.g. under its fieldset). */
  invalid?: boolean | undefined;
  /** Ids of more text read with the control, after the hint and the error. */
  describedBy?: string | undefined;
  /** Rendered last in the field (e.g. the text `describedBy` points at). */
  children?: ReactNode;
  disabled?: boolean | undefined;
  /** The wrapper's classes, instead of the control's default ones. */
  className?: string | undefined;
}

/** The aria-describedby ids, the invalid flag and the lines under a control. */
export function useFieldDescription({
  hint,
  error,
  invalid,
  describedBy,
  children,
}: FieldDescription) {
  const hintId = useId();
  const errorId = useId();
  const ids = [hint ? hintId : null, error ? errorId : null, describedBy || null].filter(Boolean);
  return {
    describedBy: ids.length > 0 ? ids.join(' ') : undefined,
    invalid: !!error || !!invalid,
    lines: (
      <>
        {hint ? (
          <span id={hintId} className="hint">
            {hint}
          </span>
        ) : null}
        {error ? (
          <span id={errorId} className="error-text">
            {error}
          </span>
        ) : null}
        {children}
      </>
    ),
  };
}

export interface TextFieldProps extends FieldDescription {
  label: string;
  value: string;
  /** Not needed when readOnly. */
  onChange?: (value: string) => void;
  /** The schema's limit, counted under the field ("12/100"). */
  max?: number;
  /**
   * Whether typing stops at `max` (the default) or goes on, so that a pasted longer text is
   * kept and validation says it is too long.
   */
  stopAtMax?: boolean;
  /** Whether the count is shown (the default when there is a `max`): a compact row leaves it out. */
  counted?: boolean;
  multiline?: boolean;
  /** Lines of a multiline field. */
  rows?: number;
  type?: 'text' | 'url' | 'email';
  placeholder?: string | undefined;
  name?: string;
  readOnly?: boolean;
}

/** A labelled text input or text area with a length counter, a hint and an error. */
export function TextField({
  label,
  value,
  onChange,
  max,
  stopAtMax = true,
  counted = true,
  multiline = false,
  rows = 3,
  type = 'text',
  placeholder,
  name,
  readOnly,
  disabled,
  className = 'field',
  ...description
}: TextFieldProps) {
  const id = useId();
  const { describedBy, invalid, lines } = useFieldDescription(description);
  const common = {
    id,
    name,
    value,
    placeholder,
    readOnly,
    disabled,
    maxLength: stopAtMax ? max : undefined,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
  };
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={rows} onChange={(event) => onChange?.(event.target.value)} />
      ) : (
        <input {...common} type={type} onChange={(event) => onChange?.(event.target.value)} />
      )}
      {max !== undefined && counted ? (
        <span className="field-count" aria-hidden="true">
          {value.length}/{max}
        </span>
      ) : null}
      {lines}
    </div>
  );
}

export interface CheckboxFieldProps extends FieldDescription {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Announced as an on/off switch (a setting that applies at once) instead of a checkbox. */
  asSwitch?: boolean;
}

/** A labelled checkbox (or switch), the box before its label. */
export function CheckboxField({
  label,
  checked,
  onChange,
  asSwitch = false,
  disabled,
  className = 'checkbox-row',
  ...description
}: CheckboxFieldProps) {
  const id = useId();
  const { describedBy, lines } = useFieldDescription(description);
  return (
    <div className={className}>
      <input
        id={id}
        type="checkbox"
        role={asSwitch ? 'switch' : undefined}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      {lines}
    </div>
  );
}

export interface SelectOption<T extends string> {
  value: T;
  label: string;
  /** The language of the label, when it is not the page's (a language's own name). */
  lang?: string;
  /** Shown but not choosable (the label or the field's hint says why). */
  disabled?: boolean;
}

export interface SelectFieldProps<T extends string> extends FieldDescription {
  label: string;
  value: T;
  options: readonly SelectOption<T>[];
  onChange: (value: T) => void;
  name?: string;
}

/** A labelled select of fixed options. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  name,
  disabled,
  className = 'field',
  ...description
}: SelectFieldProps<T>) {
  const id = useId();
  const { describedBy, invalid, lines } = useFieldDescription(description);
  return (
    <div className={className}>
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        // The options are exactly T's values, so the chosen value is one of them.
        onChange={(event) => onChange(event.target.value as T)}
      >
        {options.map((option) => (
          <option
            key={option.value}
            value={option.value}
            lang={option.lang}
            disabled={option.disabled}
          >
            {option.label}
          </option>
        ))}
      </select>
      {lines}
    </div>
  );
}
