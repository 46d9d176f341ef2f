// A live demo block: the SDK's custom element, with a fallback text shown until the element is
// defined (an undefined custom element renders its light DOM children).
import { createElement, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReactionType } from '../../../lib/db-types';
import { env } from '../../../lib/env';
import { useHydrated } from '../hooks/use-hydrated';

let sdkRequested = false;

/** Loads the SDK bundle once when its URL is configured. */
function useSdkScript() {
  useEffect(() => {
    if (sdkRequested || !env.sdkUrl || typeof document === 'undefined') return;
    sdkRequested = true;
    // The CDN loader is a classic script: it finds its chunks next to document.currentScript.
    const script = document.createElement('script');
    script.src = env.sdkUrl;
    script.defer = true;
    script.onerror = () => console.warn('[reaction-dashboard] could not load the SDK', env.sdkUrl);
    document.head.appendChild(script);
  }, []);
}

export function demoTag(type: ReactionType) {
  return `reaction-${type}`;
}

export function DemoBlock({ type }: { type: ReactionType }) {
  const { t, i18n } = useTranslation();
  useSdkScript();
  // The project and demo ids come from /env.js at run time; a prerendered page gets them right
  // after hydrating (React then sets the attributes), never the build machine's values.
  const hydrated = useHydrated();
  const ownerId = env.demo?.ownerId ?? '';
  // a Korean page shows the Korean demo blocks (the owner's texts in Korean) where there are some
  const blockId =
    (i18n.language === 'ko' ? env.demo?.ko?.[type] : undefined) ?? env.demo?.blocks[type] ?? '';
  const config = hydrated
    ? {
        'project-url': env.supabaseUrl,
        'anon-key': env.anonKey,
        'owner-id': ownerId,
        'block-id': blockId,
        // the page's language, not the demo block's (U10): a ko page shows ko blocks, and a
        // language switch on the page reaches them (the element's `lang` is reactive)
        lang: i18n.language,
      }
    : {};
  return createElement(
    demoTag(type),
    { class: 'demo-block', ...config },
    createElement(
      'p',
      { className: 'demo-block-fallback' },
      t('reaction.demoFallback', { type: t(`blockTypes.${type}`) }),
    ),
  );
}
