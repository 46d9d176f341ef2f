// A confirmation before something that cannot be taken back (deleting a block, a response or a
// question, leaving with unsaved changes, removing the account): an alertdialog whose safe
// choice has the focus. While an asynchronous confirm runs, the confirm button is busy and the
// dialog cannot be dismissed; a failure stays in the dialog with its reason, so the user can
// retry or cancel and nothing is lost.
import type { ReactNode } from 'react';
import { useSubmit } from '../../lib/use-submit';
import { Dialog } from './dialog';
import { DialogActions } from './form-dialog';
import { ErrorText } from './error-text';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  /** What will happen. */
  children: ReactNode;
  /** Defaults to "Cancel" in the reader's language (DialogActions). */
  cancelLabel?: string;
  confirmLabel: string;
  /** Cancel, Escape or a click outside. */
  onCancel: () => void;
  /** The action. Closing the dialog after it is the caller's: it knows what is left to show. */
  onConfirm: () => void | Promise<void>;
  /** A failure of onConfirm in the reader's language, shown in the dialog. */
  errorText?: (cause: unknown) => string;
}

export function ConfirmDialog({ open, ...props }: ConfirmDialogProps) {
  // Mounted only while open, so every opening starts without the last one's error.
  return open ? <OpenConfirmDialog {...props} /> : null;
}

function OpenConfirmDialog({
  title,
  children,
  cancelLabel,
  confirmLabel,
  onCancel,
  onConfirm,
  errorText,
}: Omit<ConfirmDialogProps, 'open'>) {
  const { busy, error, run } = useSubmit();
  const cancel = () => {
    if (!busy) onCancel();
  };
  return (
    <Dialog
      open
      role="alertdialog"
      title={title}
      onClose={cancel}
      actions={
        <DialogActions
          cancelLabel={cancelLabel}
          onCancel={cancel}
          focusCancel
          submitLabel={confirmLabel}
          tone="danger"
          busy={busy}
          onSubmit={() => void run(async () => onConfirm(), errorText)}
        />
      }
    >
      {children}
      {error && errorText ? <ErrorText>{error}</ErrorText> : null}
    </Dialog>
  );
}
