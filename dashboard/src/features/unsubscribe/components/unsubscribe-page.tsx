// /unsubscribe?token=...: the page a mail's Unsubscribe link opens (public). It says what the
// link stops and for which address (masked), with Back (to /) and Confirm (spec). After the
// confirmation it says it is done and offers the way home, instead of leaving at once as the
// old service did: a person should see that it worked. An address that already left these mails
// is told so at once (the server's `unsubscribed`), not asked again; a link that is not one says
// so with no button; a read that failed on the way offers Try again.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { PublicPage, PublicPicture } from '../../../components/layouts/public-page';
import { paths } from '../../../config/paths';
import { messageOf } from '../../../lib/errors';
import { useQuery } from '../../../lib/use-query';
import { confirmUnsubscribe, INVALID_LINK, readUnsubscribe } from '../api/unsubscribe';
import { ErrorText } from '../../../components/ui/error-text';

type PageState = 'loading' | 'invalid' | 'unreadable' | 'ask' | 'done' | 'already';

export function UnsubscribePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useQuery(['unsubscribe', token], () => readUnsubscribe(token));
  const [action, setAction] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);
  const card = useRef<HTMLDivElement>(null);

  const confirm = async () => {
    setAction('busy');
    setError(null);
    try {
      await confirmUnsubscribe(token);
      setAction('done');
    } catch (cause) {
      setError(messageOf(cause));
      setAction('idle');
    }
  };

  const data = info.data;
  const state: PageState =
    action === 'done'
      ? 'done'
      : data
        ? data.unsubscribed
          ? 'already'
          : 'ask'
        : info.error
          ? info.error === INVALID_LINK
            ? 'invalid'
            : 'unreadable'
          : 'loading';

  // The Unsubscribe button goes away with the answer: focus goes to the heading that says what
  // happened, not to the page's body.
  useEffect(() => {
    if (state === 'done') card.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [state]);

  const what = data
    ? t(`unsubscribe.what.${data.scope}`, { block: data.blockName ?? t('common.untitled') })
    : '';
  const heading =
    state === 'done'
      ? t('unsubscribe.titleDone')
      : state === 'already'
        ? t('unsubscribe.titleAlready')
        : state === 'invalid' || state === 'unreadable'
          ? t('unsubscribe.titleInvalid')
          : t('unsubscribe.title');

  return (
    <PublicPage className="unsubscribe-page" note={t('unsubscribe.footer')}>
      <div ref={card} className="public-card" data-state={state} aria-busy={state === 'loading'}>
        <PublicPicture
          kind={
            state === 'done' || state === 'already'
              ? 'mail-done'
              : state === 'invalid' || state === 'unreadable'
                ? 'mail-problem'
                : 'mail'
          }
        />
        {/* a heading of its own for each answer (keyed): "Already unsubscribed" replaces the
            loading state's "Unsubscribe" rather than moving its centred text */}
        <PageHeading key={heading}>{heading}</PageHeading>
        {state === 'loading' ? (
          <div className="public-skeleton" aria-hidden="true">
            <span className="public-skeleton-lead">
              <span className="public-skeleton-line" />
              <span className="public-skeleton-line public-skeleton-narrow" />
            </span>
            <span className="public-skeleton-box" />
          </div>
        ) : null}
        {state === 'loading' ? (
          <p className="visually-hidden" role="status">
            {t('common.loading')}
          </p>
        ) : null}
        {state === 'invalid' ? (
          <p className="public-lead" role="alert">
            {t('unsubscribe.invalid')}
          </p>
        ) : null}
        {state === 'unreadable' ? (
          <p className="public-lead" role="alert">
            {t('unsubscribe.unreadable')}
          </p>
        ) : null}
        {state === 'ask' && data ? (
          <>
            <p className="public-lead">{t('unsubscribe.question', { email: data.email })}</p>
            <p className="public-detail">{what}</p>
          </>
        ) : null}
        {state === 'done' && data ? (
          <>
            <p className="public-lead" role="status">
              {t('unsubscribe.done', { email: data.email })}
            </p>
            <p className="public-detail">{what}</p>
          </>
        ) : null}
        {state === 'already' && data ? (
          <>
            <p className="public-lead">{t('unsubscribe.already', { email: data.email })}</p>
            <p className="public-detail">{what}</p>
          </>
        ) : null}
        {error ? <ErrorText>{t('unsubscribe.failed', { reason: error })}</ErrorText> : null}
        {/* The buttons come with the answer as a row of their own (keyed): the skeleton's row
            goes, so the answer's lines, often longer than the bars on a phone, move nothing that
            was on screen (CLS 0; the row moved 0.0055-0.011 at 375 px before). */}
        <div className="public-actions" key={state === 'loading' ? 'waiting' : 'answered'}>
          {state === 'loading' ? (
            <span className="public-skeleton-button" aria-hidden="true" />
          ) : null}
          {state !== 'loading' ? (
            <Link to={paths.home} className="button">
              {state === 'ask' ? t('common.back') : t('unsubscribe.home')}
            </Link>
          ) : null}
          {state === 'unreadable' ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => void info.reload()}
            >
              {t('common.retry')}
            </button>
          ) : null}
          {state === 'ask' ? (
            <button
              type="button"
              className="button button-primary"
              disabled={action === 'busy'}
              aria-busy={action === 'busy'}
              onClick={() => void confirm()}
            >
              {action === 'busy' ? t('unsubscribe.busy') : t('unsubscribe.confirm')}
            </button>
          ) : null}
        </div>
        {state === 'done' ? <p className="public-small">{t('unsubscribe.doneNote')}</p> : null}
      </div>
    </PublicPage>
  );
}
