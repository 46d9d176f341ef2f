// The settings panel's controls: the dashboard's labelled fields (components/ui/fields) with the
// schema's messages in the owner's language, and `locked` for a paid-only control, which is then
// disabled and reads the upgrade hint under it.
import { useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CheckboxField,
  SelectField as UiSelectField,
  TextField as UiTextField,
  useFieldDescription,
  type FieldDescription,
  type SelectOption,
} from '../../../../components/ui/fields';
import { translateMessage } from '../../model/messages';
import { PaidHint, useSectionPaidHint } from '../paid-hint';

interface Described {
  /** Disabled with the upgrade hint (a paid-only control for an owner without a plan). */
  locked?: boolean;
  hint?: ReactNode;
  /** A schema message (English), shown in the owner's language. */
  error?: string | undefined;
}

/** A settings control's props as the shared field takes them. */
function useSettingsField<P extends Described>({
  locked,
  hint,
  error,
  ...rest
}: P): Omit<P, keyof Described> & FieldDescription {
  const { t } = useTranslation();
  const paidId = useId();
  // in a PaidSection the section's one hint says it; elsewhere the control has its own
  const sectionHint = useSectionPaidHint();
  return {
    ...rest,
    hint,
    error: error ? translateMessage(t, error) : undefined,
    disabled: locked,
    describedBy: locked ? (sectionHint ?? paidId) : undefined,
    children: locked && !sectionHint ? <PaidHint id={paidId} /> : null,
  };
}

export function TextField({
  ignoreLonger = false,
  ...props
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
  return <UiTextField {...useSettingsField(props)} stopAtMax={ignoreLonger} />;
}

/** An on/off setting: a switch before its label. */
export function ToggleField(
  props: Described & { label: string; checked: boolean; onChange: (checked: boolean) => void },
) {
  return <CheckboxField {...useSettingsField(props)} asSwitch className="field field-toggle" />;
}

export function SelectField<T extends string>(
  props: Described & {
    label: string;
    value: T;
    options: readonly SelectOption<T>[];
    onChange: (value: T) => void;
  },
) {
  return <UiSelectField {...useSettingsField(props)} />;
}

/** #abc → #aabbcc: the colour input takes six digits only. */
function sixDigits(value: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return /^#[0-9a-f]{6}$/i.test(value) ? value : '#000000';
}

/**
 * A colour: the picker and the hex text, both labelled, kept in step. No value is the theme's
 * default: the text reads "Default" (the hint says what that is) and the swatch shows `fallback`;
 * a colour the owner set has "Use default", which clears it (so does emptying the text).
 */
export function ColorField({
  label,
  value,
  fallback,
  onChange,
  note,
  ...described
}: Described & {
  label: string;
  value: string | undefined;
  /** What the swatch shows while the colour is the default. */
  fallback: string;
  onChange: (value: string | undefined) => void;
  /** A warning about the colour (it is hard to read): announced, and read with the inputs. */
  note?: string | undefined;
}) {
  const { t } = useTranslation();
  const id = useId();
  const noteId = useId();
  const hex = useRef<HTMLInputElement>(null);
  const settingsField = useSettingsField(described);
  const description = note
    ? {
        ...settingsField,
        describedBy: [noteId, settingsField.describedBy].filter(Boolean).join(' '),
      }
    : settingsField;
  const { describedBy, invalid, lines } = useFieldDescription(description);
  return (
    <div className="field field-color">
      <div className="color-head">
        <label htmlFor={id}>{label}</label>
        {value !== undefined && !description.disabled ? (
          <button
            type="button"
            className="color-reset"
            aria-label={t('workspace.fields.colorResetOf', { name: label })}
            // the button goes with the colour: focus stays in the field, on its hex text
            onClick={() => {
              onChange(undefined);
              hex.current?.focus();
            }}
          >
            {t('workspace.fields.colorReset')}
          </button>
        ) : null}
      </div>
      <div className="color-row">
        <input
          id={id}
          type="color"
          value={sixDigits(value ?? fallback)}
          disabled={description.disabled}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
        />
        <input
          ref={hex}
          type="text"
          value={value ?? ''}
          placeholder={t('workspace.fields.colorDefault')}
          maxLength={7}
          disabled={description.disabled}
          aria-label={t('workspace.fields.hexOf', { name: label })}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value.trim() || undefined)}
        />
      </div>
      {lines}
      {/* always there, so a screen reader hears the note when it comes */}
      <span role="status" className="hint field-note">
        {note ? <span id={noteId}>{note}</span> : null}
      </span>
    </div>
  );
}
