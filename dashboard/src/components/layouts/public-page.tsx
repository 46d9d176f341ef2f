// The frame of the pages a visitor (not an owner) opens from elsewhere: /unsubscribe from a mail,
// /not_supported from a browser that keeps no site data. The logo on top leads home, one card in
// the middle says where they are and what they can do, a line at the bottom says who sent them
// here. Pictures are inline SVG in the brand's colours: decorative, no request.
import type { ReactNode } from 'react';
import { Logo } from '../ui/logo';

export function PublicPage({
  className,
  note,
  children,
}: {
  className?: string;
  /** The small print under the card (who sends these mails...). */
  note?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="public-page">
      <header className="public-top">
        <Logo />
      </header>
      <main id="main" className={className ? `public-main ${className}` : 'public-main'}>
        {children}
      </main>
      <footer className="public-foot">{note ? <p>{note}</p> : null}</footer>
    </div>
  );
}

export type PublicPictureKind = 'mail' | 'mail-done' | 'mail-problem' | 'storage';

/** The badge's mark: a tick, or an exclamation mark. */
const BADGE_MARKS = { done: 'M87 22l5 5 9-10', problem: 'M94 14v10M94 30v.5' };

/** A small picture above a public card's heading (aria-hidden: the heading says it all). */
export function PublicPicture({ kind }: { kind: PublicPictureKind }) {
  const badge: keyof typeof BADGE_MARKS | null =
    kind === 'mail-done'
      ? 'done'
      : kind === 'mail-problem' || kind === 'storage'
        ? 'problem'
        : null;
  return (
    <svg
      className={`public-picture public-picture-${kind}`}
      viewBox="0 0 120 88"
      width="120"
      height="88"
      aria-hidden="true"
      focusable="false"
    >
      <ellipse cx="60" cy="80" rx="40" ry="5" className="pp-shadow" />
      {kind === 'storage' ? (
        <>
          <rect x="18" y="10" width="84" height="62" rx="10" className="pp-paper" />
          <path d="M18 26h84" className="pp-line" />
          <circle cx="29" cy="18" r="2.5" className="pp-dot" />
          <circle cx="37" cy="18" r="2.5" className="pp-dot" />
          <circle cx="45" cy="18" r="2.5" className="pp-dot" />
          <rect x="30" y="36" width="44" height="6" rx="3" className="pp-bar" />
          <rect x="30" y="48" width="30" height="6" rx="3" className="pp-bar pp-bar-soft" />
        </>
      ) : (
        <>
          <rect x="16" y="18" width="88" height="56" rx="10" className="pp-paper" />
          <path d="M20 24l40 28 40-28" className="pp-line" />
          <path d="M20 70l28-22M100 70L72 48" className="pp-line pp-line-soft" />
        </>
      )}
      {badge ? (
        <g className={`pp-badge pp-badge-${badge}`}>
          <circle cx="94" cy="22" r="15" />
          <path d={BADGE_MARKS[badge]} className="pp-mark" />
        </g>
      ) : null}
    </svg>
  );
}
