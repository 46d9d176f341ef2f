// The quiet button of a destructive action (delete, remove): a ghost button in the danger colour.
// What cannot be undone asks first (ConfirmDialog).
import type { ReactNode } from 'react';

export interface DangerButtonProps {
  onClick: () => void;
  children: ReactNode;
  disabled?: boolean;
}

export function DangerButton({ onClick, children, disabled }: DangerButtonProps) {
  return (
    <button
      type="button"
      className="button button-ghost danger-text"
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
