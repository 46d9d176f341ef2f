import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useHydrated } from './use-hydrated';

/**
 * Reads the `focus` query parameter as one of `allowed`. The value is trimmed and compared
 * exactly, so every allowed value (including `button`, which the old system matched with a
 * stray leading space) preselects its tab. Aliases map alternative spellings.
 */
export function parseFocus<T extends string>(
  value: string | null,
  allowed: readonly T[],
  fallback: T,
  aliases: Partial<Record<string, T>> = {},
): T {
  const key = (value ?? '').trim().toLowerCase();
  if ((allowed as readonly string[]).includes(key)) return key as T;
  return aliases[key] ?? fallback;
}

/**
 * The selected tab lives in the URL (?focus=), so links and reloads keep it. The build renders
 * the fallback tab (it cannot know the query); index.html's boot script does not reuse that page
 * for a visit with ?focus=, and should one hydrate anyway the tab follows right after.
 */
export function useFocusParam<T extends string>(
  allowed: readonly T[],
  fallback: T,
  aliases?: Partial<Record<string, T>>,
) {
  const [params, setParams] = useSearchParams();
  const hydrated = useHydrated();
  const selected = parseFocus(hydrated ? params.get('focus') : null, allowed, fallback, aliases);
  const select = useCallback(
    (next: T) => {
      setParams(
        (current) => {
          const copy = new URLSearchParams(current);
          copy.set('focus', next);
          return copy;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    [setParams],
  );
  return [selected, select] as const;
}
