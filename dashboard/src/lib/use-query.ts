// Loading data for a screen: one small hook instead of an effect with alive flags in each
// feature. It runs `load` when the key changes, ignores answers that arrive after a newer load
// started (or after unmount), and keeps the last data while reloading.
import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './errors';

export interface QueryState<T> {
  data: T | undefined;
  /** The message of the last failed load (the data read before stays). */
  error: string | null;
  loading: boolean;
  /** Loads again; resolves when done. */
  reload: () => Promise<void>;
  /** Changes the data locally (after a write the screen already knows the result of). */
  setData: (update: (data: T | undefined) => T | undefined) => void;
}

interface Loaded<T> {
  /** The key the data and error belong to (null before the first answer). */
  key: string | null;
  data: T | undefined;
  error: string | null;
}

export function useQuery<T>(key: string, load: () => Promise<T>): QueryState<T> {
  const [state, setState] = useState<Loaded<T>>({ key: null, data: undefined, error: null });
  const [reloading, setReloading] = useState(false);
  const loadRef = useRef(load);
  useEffect(() => {
    loadRef.current = load;
  });
  const latest = useRef(0);

  /** Loads for `forKey`; only the newest load's answer is kept. */
  const run = useCallback(async (forKey: string, current: () => boolean) => {
    try {
      const data = await loadRef.current();
      if (current()) setState({ key: forKey, data, error: null });
    } catch (cause) {
      if (!current()) return;
      console.error('[reaction-dashboard] load failed', cause);
      setState((s) => ({ ...s, key: forKey, error: messageOf(cause) }));
    }
  }, []);

  useEffect(() => {
    const mine = ++latest.current;
    let mounted = true;
    void run(key, () => mounted && mine === latest.current);
    return () => {
      mounted = false;
    };
  }, [key, run]);

  const reload = useCallback(async () => {
    const mine = ++latest.current;
    setReloading(true);
    try {
      await run(key, () => mine === latest.current);
    } finally {
      setReloading(false);
    }
  }, [key, run]);

  const setData = useCallback(
    (update: (value: T | undefined) => T | undefined) =>
      setState((s) => ({ ...s, data: update(s.data) })),
    [],
  );
  const fresh = state.key === key;
  return {
    data: fresh ? state.data : undefined,
    error: fresh ? state.error : null,
    loading: !fresh || reloading,
    reload,
    setData,
  };
}
