// The real SDK element (<reaction-{type}>) in dummy mode, fed the draft through its `view`
// property: no fetch, nothing written, and every unsaved edit shows at once.
import { useLayoutEffect, useRef, type ElementType } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReactionType } from '../../../lib/db-types';
import { env } from '../../../lib/env';
import { useSdkScript } from '../hooks/use-sdk-script';
import type { PreviewView } from '../model/preview';

interface PreviewElement extends HTMLElement {
  view?: unknown;
  dummy?: boolean;
}

export function BlockPreview({
  type,
  view,
  className,
}: {
  type: ReactionType;
  view: PreviewView;
  className?: string;
}) {
  const { t } = useTranslation();
  const ref = useRef<PreviewElement>(null);
  useSdkScript();
  // An ending is shown by the form element (the ab element has no ending view of its own).
  const tag = view.block.mode === 'ending' ? 'reaction-form' : `reaction-${type}`;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Properties, not attributes: set before the element is defined they are picked up when it
    // upgrades; set again once it is, so a late upgrade cannot miss an edit. A session the element
    // read on connecting, before `dummy` reached it (an upgrade after this, or this effect after
    // React connected it), is dropped by the SDK at its first update (BlockElement.willUpdate).
    el.dummy = true;
    el.view = view;
    let alive = true;
    void customElements.whenDefined(tag).then(() => {
      if (!alive) return;
      el.dummy = true;
      el.view = view;
    });
    return () => {
      alive = false;
    };
  }, [tag, view]);

  // No block-id: with a view and no id the element never fetches.
  const Tag = tag as ElementType;
  return (
    <Tag
      key={tag}
      ref={ref}
      className={['block-preview-element', className].filter(Boolean).join(' ')}
      project-url={env.supabaseUrl}
      anon-key={env.anonKey}
    >
      <p className="hint">{t('workspace.preview.loading')}</p>
    </Tag>
  );
}
