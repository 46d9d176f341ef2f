// A button whose action runs for a while (save, export): while busy it is disabled and aria-busy,
// and a spinning ring stands before its label, in place of its icon if it has one.
import type { ReactNode } from 'react';

export interface BusyButtonProps {
  busy: boolean;
  onClick: () => void;
  children: ReactNode;
  /** Shown before the label when not busy. */
  icon?: ReactNode;
  /** Disabled for another reason too. */
  disabled?: boolean;
  className?: string;
}

export function BusyButton({
  busy,
  onClick,
  children,
  icon = null,
  disabled = false,
  className = 'button',
}: BusyButtonProps) {
  return (
    <button
      type="button"
      className={className}
      onClick={onClick}
      disabled={busy || disabled}
      aria-busy={busy || undefined}
    >
      {busy ? <span className="spinner-ring" aria-hidden="true" /> : icon}
      {children}
    </button>
  );
}
