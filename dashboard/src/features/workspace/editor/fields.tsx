// The editor's text field: the dashboard's labelled field (components/ui/fields), full width with
// four-line text areas (editor.css). Typing stops at the schema's limit.
import { BLOCK_LIMITS } from '@reaction-blocks/contracts/schemas';
import { TextField as UiTextField, type TextFieldProps } from '../../../components/ui/fields';

export function TextField(props: TextFieldProps) {
  return <UiTextField className="field editor-field" rows={4} {...props} />;
}

export interface OptionalUrlFieldProps {
  label: string;
  value: string | null;
  error: string | undefined;
  disabled?: boolean;
  onChange: (value: string | null) => void;
}

/**
 * An optional link of a question or an ending (the image's address, the page an ending opens):
 * a URL at the schema's length, null when left blank.
 */
export function OptionalUrlField({
  label,
  value,
  error,
  disabled,
  onChange,
}: OptionalUrlFieldProps) {
  return (
    <TextField
      label={label}
      type="url"
      value={value ?? ''}
      max={BLOCK_LIMITS.url}
      placeholder="https://"
      disabled={disabled}
      error={error}
      onChange={(next) => onChange(next.trim() === '' ? null : next)}
    />
  );
}
