// Loads the SDK's CDN loader once, so the preview can show the real <reaction-*> elements.
// (The landing's demo blocks load the same script; features do not share code, and a second
// request for the same URL is skipped below.)
import { useEffect } from 'react';
import { env } from '../../../lib/env';

function alreadyRequested(src: string): boolean {
  return Array.from(document.scripts).some((script) => script.src === src);
}

export function useSdkScript() {
  useEffect(() => {
    const src = env.sdkUrl;
    if (!src || typeof document === 'undefined') return;
    const absolute = new URL(src, window.location.href).href;
    if (alreadyRequested(absolute)) return;
    // The CDN loader is a classic script: it finds its chunks next to document.currentScript.
    const script = document.createElement('script');
    script.src = absolute;
    script.defer = true;
    script.onerror = () => console.warn('[reaction-dashboard] could not load the SDK', absolute);
    document.head.appendChild(script);
  }, []);
}
