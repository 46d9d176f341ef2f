import { useEffect, useRef, type RefObject, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LETTER_TYPES, type LetterType } from '../../../lib/db-types';
import { useScrollStop } from '../../../lib/scroll-stop';
import { ProductPage } from './product-page';

const FEATURES = ['page', 'audience', 'manual', 'stats', 'cta', 'history'] as const;
const ALIASES: Partial<Record<string, LetterType>> = {
  notion: 'notion_letter',
  typedream: 'typedream_letter',
  brunch: 'brunch_letter',
};

/** Scrolls `target` to the same relative position as `source`. */
export function syncScroll(source: HTMLElement, target: HTMLElement) {
  const range = source.scrollHeight - source.clientHeight;
  const ratio = range > 0 ? source.scrollTop / range : 0;
  target.scrollTop = ratio * (target.scrollHeight - target.clientHeight);
}

type Side = 'before' | 'after';

/** The files the build renders from fixture pages through the letter pipeline (scripts/letter-samples.ts). */
export const sampleUrl = (type: LetterType, kind: Side) => `/letter-samples/${type}-${kind}.html`;

/**
 * One side of the before/after: the page or the letter in a frame as tall as its document, so the
 * pane around it scrolls (and the two panes scroll together). Same origin, no scripts in it.
 */
function SampleFrame({ src, title }: { src: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const fit = () => {
      const doc = frame.current?.contentDocument;
      if (doc?.documentElement)
        frame.current!.style.height = `${doc.documentElement.scrollHeight}px`;
    };
    const el = frame.current;
    el?.addEventListener('load', fit);
    window.addEventListener('resize', fit);
    fit();
    return () => {
      el?.removeEventListener('load', fit);
      window.removeEventListener('resize', fit);
    };
  }, [src]);
  return (
    <iframe
      ref={frame}
      className="sample-frame"
      src={src}
      title={title}
      sandbox="allow-same-origin"
      loading="lazy"
    />
  );
}

/**
 * The page (before) or the letter made of it (after): its title over its scrolling pane, a Tab
 * stop only while its frame is taller than it (before the frame has loaded, or for a page
 * shorter than the pane, there is nothing to scroll).
 */
function SamplePane({
  side,
  type,
  pane,
  onScroll,
}: {
  side: Side;
  type: LetterType;
  pane: RefObject<HTMLDivElement | null>;
  onScroll: (side: Side, event: UIEvent<HTMLDivElement>) => void;
}) {
  const { t } = useTranslation();
  const ref = useScrollStop(pane);
  return (
    <div>
      <h2 className="pane-title">{t(`send.${side}`)}</h2>
      <div
        ref={ref}
        className={side === 'after' ? 'pane pane-mail' : 'pane'}
        role="region"
        aria-label={t(`send.${side}`)}
        onScroll={(event) => onScroll(side, event)}
      >
        <SampleFrame
          key={`${side}-${type}`}
          src={sampleUrl(type, side)}
          title={t(`send.${side}Frame`, { source: t(`send.tabs.${type}`) })}
        />
      </div>
    </div>
  );
}

export function SendPage() {
  const { t } = useTranslation();
  const before = useRef<HTMLDivElement>(null);
  const after = useRef<HTMLDivElement>(null);
  // The pane being scrolled by the user leads; the other follows (avoids feedback loops).
  const leader = useRef<Side | null>(null);

  const onScroll = (from: Side, event: UIEvent<HTMLDivElement>) => {
    if (leader.current && leader.current !== from) return;
    leader.current = from;
    const target = from === 'before' ? after.current : before.current;
    if (target) syncScroll(event.currentTarget, target);
    window.requestAnimationFrame(() => {
      leader.current = null;
    });
  };

  return (
    <ProductPage
      page="send"
      features={FEATURES}
      types={LETTER_TYPES}
      fallback="notion_letter"
      aliases={ALIASES}
      tabLabel={(type) => t(`send.tabs.${type}`)}
    >
      {(selected) => (
        <>
          <div className="before-after">
            <SamplePane side="before" type={selected} pane={before} onScroll={onScroll} />
            <SamplePane side="after" type={selected} pane={after} onScroll={onScroll} />
          </div>
          <p className="sample-note">{t('send.sampleNote')}</p>
        </>
      )}
    </ProductPage>
  );
}
