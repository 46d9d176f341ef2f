import { useEffect, useState, type RefObject } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * True once the element has come within `margin` of the viewport, and from then on. Where the
 * browser has no IntersectionObserver (tests, old browsers), true once hydrated; never while
 * prerendering or hydrating, so the markup matches.
 */
export function useInView(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [seen, setSeen] = useState(false);
  const observable = typeof IntersectionObserver !== 'undefined';
  const hydrated = useHydrated();
  useEffect(() => {
    const element = ref.current;
    if (seen || !element || !observable) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, seen, observable]);
  return seen || (hydrated && !observable);
}
