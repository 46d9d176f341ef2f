// A problem the page tells its reader at once (role="alert"): a failed load, a refused save.
// It renders nothing while there is nothing to say, so `<ErrorText>{error}</ErrorText>` needs no
// condition around it.
import type { ReactNode } from 'react';

export function ErrorText({
  children,
  id,
  className,
}: {
  children: ReactNode;
  id?: string;
  /** Placed by its container (e.g. `workspace-save-error`: a line of its own in the top bar). */
  className?: string;
}) {
  if (children === null || children === undefined || children === false || children === '')
    return null;
  return (
    <p id={id} className={className ? `error-text ${className}` : 'error-text'} role="alert">
      {children}
    </p>
  );
}
