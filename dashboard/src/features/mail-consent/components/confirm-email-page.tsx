// /confirm-email?token=...: the page a confirmation mail's links open (public; double opt-in of
// an address a visitor typed). It says what the address is asked about, in the mail's words (the
// scope, the address, the address the mails would come from; for notifications the owner's
// sign-in address): never a block or account name, which an owner writes and a stranger's
// address would be shown (docs/security.md). It asks for a click:
// opening the link confirms nothing by itself (mail scanners open links). "Not me" stops every
// mail to the address. A sender address mail's "Not me" link (scope sender) offers only "Not me":
// the owner confirms a sender signed in, on /profile/email. A link that is spent, expired or not
// one says so with no button.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { LinkAnswerCard, linkRead } from '../../../components/layouts/link-answer-card';
import { ErrorText } from '../../../components/ui/error-text';
import { RetryButton } from '../../../components/ui/load-failed';
import { paths } from '../../../config/paths';
import { linkFailure } from '../../../lib/link-function';
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
  const info = useQuery(['mail-consent', token], (signal) => readMailConsent(token, signal));
  const [done, setDone] = useState<'confirmed' | 'declined' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const answer = async (choice: ConsentAnswer) => {
    setBusy(true);
    setError(null);
    try {
      setDone((await answerMailConsent(token, choice)).outcome);
    } catch (cause) {
      setError(linkFailure(cause, t('confirmEmail.invalid')));
    } finally {
      setBusy(false);
    }
  };

  const data = info.data;
  const read = linkRead(info, INVALID_LINK);
  const state: PageState = done ?? (read === 'read' ? 'ask' : read);
  const answered = state === 'confirmed' || state === 'declined';

  const what = !data
    ? ''
    : [
        data.scope === 'notify' || data.scope === 'sender'
          ? t(`confirmEmail.what.${data.scope}`, {
              owner: data.ownerEmail || t('confirmEmail.someOwner'),
            })
          : t(`confirmEmail.what.${data.scope}`),
        data.sender && data.scope !== 'sender'
          ? t('confirmEmail.from', { sender: data.sender })
          : '',
      ]
        .filter(Boolean)
        .join(' ');
  const heading = t(
    state === 'confirmed'
      ? 'confirmEmail.titleConfirmed'
      : state === 'declined'
        ? 'confirmEmail.titleDeclined'
        : state === 'invalid' || state === 'unreadable'
          ? 'confirmEmail.titleInvalid'
          : data?.scope === 'sender'
            ? 'confirmEmail.titleSender'
            : 'confirmEmail.title',
  );
  // the primary button is the first choice: Confirm, or Not me from the mail's "not me" link; a
  // sender mail's token only declines
  const choices: ConsentAnswer[] =
    data?.scope === 'sender'
      ? ['not-me']
      : notMeFirst
        ? ['not-me', 'confirm']
        : ['confirm', 'not-me'];
  const choiceButtons = choices.map((choice, i) => (
    <button
      key={choice}
      type="button"
      className={i === 0 ? 'button button-primary' : 'button'}
      disabled={busy}
      onClick={() => void answer(choice)}
    >
      {t(choice === 'confirm' ? 'confirmEmail.confirm' : 'confirmEmail.notMe')}
    </button>
  ));

  return (
    <LinkAnswerCard
      className="confirm-email-page"
      note={t('confirmEmail.footer')}
      state={state}
      picture={
        answered
          ? 'mail-done'
          : state === 'invalid' || state === 'unreadable'
            ? 'mail-problem'
            : 'mail'
      }
      heading={heading}
      focusHeading={answered}
      problem={
        state === 'invalid' || state === 'unreadable'
          ? t(state === 'invalid' ? 'confirmEmail.invalid' : 'confirmEmail.unreadable')
          : null
      }
      error={error ? <ErrorText>{t('confirmEmail.failed', { reason: error })}</ErrorText> : null}
      actions={
        <>
          {state === 'ask' ? choiceButtons : null}
          {state === 'unreadable' ? (
            <RetryButton className="button button-primary" onRetry={() => void info.reload()} />
          ) : null}
          {state !== 'ask' ? (
            <Link to={paths.home} className="button">
              {t('confirmEmail.home')}
            </Link>
          ) : null}
        </>
      }
    >
      {state === 'ask' && data ? (
        <>
          <p className="public-lead">
            {t(data.scope === 'sender' ? 'confirmEmail.questionSender' : 'confirmEmail.question', {
              email: data.email,
            })}
          </p>
          <p className="public-detail">{what}</p>
        </>
      ) : null}
      {answered && data ? (
        <>
          <p className="public-lead" role="status">
            {t(`confirmEmail.${state}`, { email: data.email })}
          </p>
          {state === 'confirmed' ? <p className="public-detail">{what}</p> : null}
        </>
      ) : null}
    </LinkAnswerCard>
  );
}
