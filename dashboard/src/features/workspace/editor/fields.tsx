// The editor's text field: the dashboard's labelled field (components/ui/fields), full width with
// four-line text areas (editor.css). Typing stops at the schema's limit.
import { TextField as UiTextField, type TextFieldProps } from '../../../components/ui/fields';

export function TextField(props: TextFieldProps) {
  return <UiTextField className="field editor-field" rows={4} {...props} />;
}
