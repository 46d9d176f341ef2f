// The footer every dialog with an action shares (Cancel, then the action, busy while it runs) and
// a dialog that is a form: Enter in a field submits, the action waits for a valid form, a failure
// stays in the dialog with its reason, and the dialog cannot be dismissed while the action runs.
import { useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './dialog';
import { ErrorText } from './error-text';

export interface DialogActionsProps {
  submitLabel: ReactNode;
  onCancel: () => void;
  /** Defaults to "Cancel" in the reader's language. */
  cancelLabel?: ReactNode;
  busy?: boolean;
  /** Shown on the action while busy (e.g. "Verifying…"); the label stays otherwise. */
  busyLabel?: ReactNode;
  /** False keeps the action disabled (an incomplete or unchanged form). */
  canSubmit?: boolean;
  tone?: 'primary' | 'danger';
  /** The form the action submits; without it the action is a plain button calling onSubmit. */
  form?: string;
  onSubmit?: () => void;
  /** Cancel takes the focus when the dialog opens (confirmations: the safe choice first). */
  focusCancel?: boolean;
  /** Buttons before Cancel (e.g. "Remove link"). */
  before?: ReactNode;
}

export function DialogActions({
  submitLabel,
  onCancel,
  cancelLabel,
  busy = false,
  busyLabel,
  canSubmit = true,
  tone = 'primary',
  form,
  onSubmit,
  focusCancel = false,
  before,
}: DialogActionsProps) {
  const { t } = useTranslation();
  return (
    <>
      {before}
      <button
        type="button"
        className="button button-ghost"
        onClick={onCancel}
        disabled={busy}
        data-autofocus={focusCancel || undefined}
      >
        {cancelLabel ?? t('common.cancel')}
      </button>
      <button
        type={form ? 'submit' : 'button'}
        form={form}
        className={`button button-${tone}`}
        onClick={form ? undefined : onSubmit}
        disabled={busy || !canSubmit}
        aria-busy={busy || undefined}
      >
        {busy && busyLabel ? busyLabel : submitLabel}
      </button>
    </>
  );
}

export interface FormDialogProps extends Omit<
  DialogActionsProps,
  'onCancel' | 'form' | 'onSubmit' | 'focusCancel'
> {
  title: ReactNode;
  onClose: () => void;
  /** Called on the action and on Enter, only when canSubmit and not busy. */
  onSubmit: () => void;
  /** A failure to show under the fields (role alert). */
  error?: string | null;
  className?: string;
  children: ReactNode;
}

export function FormDialog({
  title,
  onClose,
  onSubmit,
  error,
  className,
  children,
  ...actions
}: FormDialogProps) {
  const formId = useId();
  const { busy = false, canSubmit = true } = actions;
  const close = () => {
    if (!busy) onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy && canSubmit) onSubmit();
  };
  return (
    <Dialog
      open
      title={title}
      onClose={close}
      className={className}
      actions={<DialogActions {...actions} onCancel={close} form={formId} />}
    >
      <form id={formId} onSubmit={submit} noValidate>
        {children}
        <ErrorText>{error}</ErrorText>
      </form>
    </Dialog>
  );
}
