// A dialog with nothing to submit: its footer's last button closes it (Close, Done, Cancel), as
// Escape and a click outside do. For a picker, something to read, an editor that keeps what is
// typed as it goes. Buttons before it (e.g. "Save as a file") go in `before`.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, type DialogProps } from './dialog';

export interface DialogWithCloseProps extends Omit<DialogProps, 'actions' | 'dismissible'> {
  /** The close button's text: Close unless the dialog says otherwise (Done, Cancel). */
  closeLabel?: ReactNode;
  /** The close button's look: primary (the default), ghost, or a plain button. */
  closeTone?: 'primary' | 'ghost' | 'plain';
  before?: ReactNode;
}

export function DialogWithClose({
  closeLabel,
  closeTone = 'primary',
  before,
  onClose,
  ...dialog
}: DialogWithCloseProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      {...dialog}
      onClose={onClose}
      actions={
        <>
          {before}
          <button
            type="button"
            className={closeTone === 'plain' ? 'button' : `button button-${closeTone}`}
            onClick={onClose}
          >
            {closeLabel ?? t('common.close')}
          </button>
        </>
      }
    />
  );
}
