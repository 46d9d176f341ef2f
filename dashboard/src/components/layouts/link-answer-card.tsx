// The card of a public page that answers a link from a mail (/unsubscribe, /confirm-email): the
// read of the link's token as the page's first state, a picture and a heading for each answer,
// the loading skeleton, the alert for a link that is none or could not be read, and the row of
// actions that comes with the answer. The pages say what is asked, what each answer means and
// which buttons it offers.
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../lib/errors';
import { PageHeading } from '../ui/page-heading';
import { PublicPage, PublicPicture, type PublicPictureKind } from './public-page';

/** Where the read of a link's token stands: under way, refused as no link, failed, or read. */
export type LinkRead = 'loading' | 'invalid' | 'unreadable' | 'read';

/** The read's state from the page's query; `invalid` is the server's message for no link. */
export function linkRead(info: { data: unknown; cause: unknown }, invalid: string): LinkRead {
  if (info.data) return 'read';
  if (!info.cause) return 'loading';
  return messageOf(info.cause) === invalid ? 'invalid' : 'unreadable';
}

export function LinkAnswerCard({
  className,
  note,
  state,
  picture,
  heading,
  focusHeading,
  problem,
  error,
  actions,
  after,
  children,
}: {
  className: string;
  /** The small print under the card. */
  note: string;
  /** The page's state ('loading' shows the skeleton), as data-state for its styles and tests. */
  state: string;
  picture: PublicPictureKind;
  heading: string;
  /** The heading of an answer that came after a click takes the focus (the button went). */
  focusHeading: boolean;
  /** The alert under the heading: the link is none, or could not be read. */
  problem?: string | null;
  /** A failed answer, already in words. */
  error?: ReactNode;
  /** The buttons of the answer (the row is there while loading, with a skeleton button). */
  actions: ReactNode;
  /** The small print under the buttons. */
  after?: ReactNode;
  /** The answer's lines. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const card = useRef<HTMLDivElement>(null);
  const loading = state === 'loading';

  useEffect(() => {
    if (focusHeading) card.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [focusHeading]);

  return (
    <PublicPage className={className} note={note}>
      <div ref={card} className="public-card" data-state={state} aria-busy={loading}>
        <PublicPicture kind={picture} />
        {/* a heading of its own for each answer (keyed): "Already unsubscribed" replaces the
            loading state's "Unsubscribe" rather than moving its centred text */}
        <PageHeading key={heading}>{heading}</PageHeading>
        {loading ? (
          <>
            <div className="public-skeleton" aria-hidden="true">
              <span className="public-skeleton-lead">
                <span className="public-skeleton-line" />
                <span className="public-skeleton-line public-skeleton-narrow" />
              </span>
              <span className="public-skeleton-box" />
            </div>
            <p className="visually-hidden" role="status">
              {t('common.loading')}
            </p>
          </>
        ) : null}
        {problem ? (
          <p className="public-lead" role="alert">
            {problem}
          </p>
        ) : null}
        {children}
        {error}
        {/* The buttons come with the answer as a row of their own (keyed): the skeleton's row
            goes, so the answer's lines, often longer than the bars on a phone, move nothing that
            was on screen (CLS 0; the row moved 0.0055-0.011 at 375 px before). */}
        <div className="public-actions" key={loading ? 'waiting' : 'answered'}>
          {loading ? <span className="public-skeleton-button" aria-hidden="true" /> : actions}
        </div>
        {after}
      </div>
    </PublicPage>
  );
}
