// /confirm-email?token=...: the page a confirmation mail's links open (public; double opt-in of
// an address a visitor typed). It says what the address is asked about and asks for a click:
// opening the link confirms nothing by itself (mail scanners open links). "Not me" stops every
// mail to the address. A link that is spent, expired or not one says so with no button.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { PublicPage, PublicPicture } from '../../../components/layouts/public-page';
import { ErrorText } from '../../../components/ui/error-text';
import { paths } from '../../../config/paths';
import { messageOf } from '../../../lib/errors';
import { useQuery } from '../../../lib/use-query';
import {
  answerMailConsent,
  INVALID_LINK,
  readMailConsent,
  type ConsentAnswer,
} from '../api/mail-consent';

type PageState = 'loading' | 'invalid' | 'unreadable' | 'ask' | 'confirmed' | 'declined';

export function ConfirmEmailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // the mail's "not me" link: the same question, with "Not me" as the first choice
  const notMeFirst = params.get('answer') === 'not-me';
  const info = useQuery(['mail-consent', token], () => readMailConsent(token));
  const [done, setDone] = useState<'confirmed' | 'declined' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const card = useRef<HTMLDivElement>(null);

  const answer = async (choice: ConsentAnswer) => {
    setBusy(true);
    setError(null);
    try {
      setDone((await answerMailConsent(token, choice)).outcome);
    } catch (cause) {
      setError(messageOf(cause));
    } finally {
      setBusy(false);
    }
  };

  const data = info.data;
  const state: PageState =
    done ??
    (data
      ? 'ask'
      : info.error
        ? info.error === INVALID_LINK
          ? 'invalid'
          : 'unreadable'
        : 'loading');

  useEffect(() => {
    if (state === 'confirmed' || state === 'declined')
      card.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [state]);

  const what = data
    ? data.scope === 'reply'
      ? t('confirmEmail.what.reply', { block: data.blockName ?? t('common.untitled') })
      : t('confirmEmail.what.letters', {
          owner: data.ownerName || t('confirmEmail.someOwner'),
          block: data.blockName ?? t('common.untitled'),
        })
    : '';
  const heading = t(
    state === 'confirmed'
      ? 'confirmEmail.titleConfirmed'
      : state === 'declined'
        ? 'confirmEmail.titleDeclined'
        : state === 'invalid' || state === 'unreadable'
          ? 'confirmEmail.titleInvalid'
          : 'confirmEmail.title',
  );
  const confirmButton = (
    <button
      key="confirm"
      type="button"
      className={notMeFirst ? 'button' : 'button button-primary'}
      disabled={busy}
      onClick={() => void answer('confirm')}
    >
      {t('confirmEmail.confirm')}
    </button>
  );
  const notMeButton = (
    <button
      key="not-me"
      type="button"
      className={notMeFirst ? 'button button-primary' : 'button'}
      disabled={busy}
      onClick={() => void answer('not-me')}
    >
      {t('confirmEmail.notMe')}
    </button>
  );

  return (
    <PublicPage className="confirm-email-page" note={t('confirmEmail.footer')}>
      <div ref={card} className="public-card" data-state={state} aria-busy={state === 'loading'}>
        <PublicPicture
          kind={
            state === 'confirmed' || state === 'declined'
              ? 'mail-done'
              : state === 'invalid' || state === 'unreadable'
                ? 'mail-problem'
                : 'mail'
          }
        />
        <PageHeading key={heading}>{heading}</PageHeading>
        {state === 'loading' ? (
          <p className="visually-hidden" role="status">
            {t('common.loading')}
          </p>
        ) : null}
        {state === 'invalid' || state === 'unreadable' ? (
          <p className="public-lead" role="alert">
            {t(state === 'invalid' ? 'confirmEmail.invalid' : 'confirmEmail.unreadable')}
          </p>
        ) : null}
        {state === 'ask' && data ? (
          <>
            <p className="public-lead">{t('confirmEmail.question', { email: data.email })}</p>
            <p className="public-detail">{what}</p>
          </>
        ) : null}
        {(state === 'confirmed' || state === 'declined') && data ? (
          <>
            <p className="public-lead" role="status">
              {t(`confirmEmail.${state}`, { email: data.email })}
            </p>
            {state === 'confirmed' ? <p className="public-detail">{what}</p> : null}
          </>
        ) : null}
        {error ? <ErrorText>{t('confirmEmail.failed', { reason: error })}</ErrorText> : null}
        <div className="public-actions">
          {state === 'ask'
            ? notMeFirst
              ? [notMeButton, confirmButton]
              : [confirmButton, notMeButton]
            : null}
          {state === 'unreadable' ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => void info.reload()}
            >
              {t('common.retry')}
            </button>
          ) : null}
          {state !== 'ask' && state !== 'loading' ? (
            <Link to={paths.home} className="button">
              {t('confirmEmail.home')}
            </Link>
          ) : null}
        </div>
      </div>
    </PublicPage>
  );
}
