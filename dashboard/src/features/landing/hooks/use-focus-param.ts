import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';

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

/** The selected tab lives in the URL (?focus=), so links and reloads keep it. */
export function useFocusParam<T extends string>(
  allowed: readonly T[],
  fallback: T,
  aliases?: Partial<Record<string, T>>,
) {
  const [params, setParams] = useSearchParams();
  const selected = parseFocus(params.get('focus'), allowed, fallback, aliases);
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
