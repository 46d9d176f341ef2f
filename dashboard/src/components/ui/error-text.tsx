// A problem the page tells its reader at once (role="alert"): a failed load, a refused save.
// It renders nothing while there is nothing to say, so `<ErrorText>{error}</ErrorText>` needs no
// condition around it.
import type { ReactNode } from 'react';

export function ErrorText({ children, id }: { children: ReactNode; id?: string }) {
  if (children === null || children === undefined || children === false || children === '')
    return null;
  return (
    <p id={id} className="error-text" role="alert">
      {children}
    </p>
  );
}
