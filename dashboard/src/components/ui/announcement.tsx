// What an action just did (connected, added, saved...): one polite live region that is read out
// once and is the visible notice while it has something to say (visually hidden, but in place for
// the next message, while it has not).
import type { ReactNode } from 'react';

export function Announcement({ children }: { children: ReactNode }) {
  const empty =
    children === null || children === undefined || children === false || children === '';
  return (
    <p role="status" aria-live="polite" className={empty ? 'visually-hidden' : 'notice'}>
      {children}
    </p>
  );
}
