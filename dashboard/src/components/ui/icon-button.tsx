// A ghost button that shows only an icon: its label is its accessible name and, for pointer users,
// its tooltip.
import type { ReactNode } from 'react';

export interface IconButtonProps {
  label: string;
  /** The icon (aria-hidden). */
  children: ReactNode;
  onClick: () => void;
  /** Classes after "button button-ghost". */
  className?: string;
}

export function IconButton({ label, children, onClick, className }: IconButtonProps) {
  return (
    <button
      type="button"
      className={['button button-ghost', className].filter(Boolean).join(' ')}
      aria-label={label}
      title={label}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
