// One action at a time, with its failure kept for the screen: the busy flag and error line every
// dialog and form button had written out for itself.
import { useCallback, useRef, useState } from 'react';
import { messageOf } from './errors';

export interface Submit {
  /** True while run's work is under way. */
  busy: boolean;
  /** The last failure, already in the reader's words; cleared when run starts again. */
  error: string | null;
  setError: (error: string | null) => void;
  /**
   * Runs work unless a run is under way (a double click sends once). A failure is logged and
   * kept in `error` through describe (by default the cause's message); nothing is rethrown.
   */
  run: (work: () => Promise<void>, describe?: (cause: unknown) => string) => Promise<void>;
}

export function useSubmit(): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the state above changes on the next render; this guards a second click before it
  const running = useRef(false);
  const run = useCallback(
    async (work: () => Promise<void>, describe: (cause: unknown) => string = messageOf) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setError(null);
      try {
        await work();
      } catch (cause) {
        console.error('[reaction-dashboard] action failed', cause);
        setError(describe(cause));
      } finally {
        running.current = false;
        setBusy(false);
      }
    },
    [],
  );
  return { busy, error, setError, run };
}
