// Modal dialog: focus moves in and is trapped (and comes back when its control goes away),
// Escape closes, focus returns to the opener.
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { focusableWithin } from './focusable';
import { focusPageHeading } from './page-heading';

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /** Footer actions (buttons). */
  actions?: ReactNode;
  /** When false, Escape and backdrop clicks do nothing (e.g. a required consent). */
  dismissible?: boolean;
  className?: string;
  /** Role alertdialog for confirmations. */
  role?: 'dialog' | 'alertdialog';
}

export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
  dismissible = true,
  className,
  role = 'dialog',
}: DialogProps) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const node = panel.current;
    if (node) {
      const first = node.querySelector<HTMLElement>('[data-autofocus]') ?? focusableWithin(node)[0];
      (first ?? node).focus();
    }
    // A control that goes away while focused (a dialog's Import button once the import is done)
    // drops focus to <body>, behind the modal: Escape and the Tab trap would then no longer work,
    // and a screen reader hears nothing. Focus comes back to the dialog itself.
    const keep = new MutationObserver(() => {
      if (node && (!document.activeElement || document.activeElement === document.body))
        node.focus();
    });
    if (node) keep.observe(node, { childList: true, subtree: true });
    return () => {
      keep.disconnect();
      // Back to what opened the dialog; when that was nothing (a dialog that opened by itself,
      // like the consent modal) or it has gone, to the page's heading rather than <body>.
      if (opener && opener !== document.body && document.contains(opener)) opener.focus();
      else focusPageHeading();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (dismissible) onClose();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = focusableWithin(panel.current);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (
      event.shiftKey &&
      (document.activeElement === first || document.activeElement === panel.current)
    ) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget && dismissible) onClose();
      }}
    >
      <div
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        className={['dialog', className].filter(Boolean).join(' ')}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        <div className="dialog-body">{children}</div>
        {actions ? <div className="dialog-actions">{actions}</div> : null}
      </div>
    </div>,
    document.body,
  );
}
