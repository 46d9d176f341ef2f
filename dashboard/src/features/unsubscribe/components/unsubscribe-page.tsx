// /unsubscribe?token=...: the page a mail's Unsubscribe link opens (public). It says what the
// link stops and for which address (masked), with Back (to /) and Confirm (spec). After the
// confirmation it says it is done and offers the way home, instead of leaving at once as the
// old service did: a person should see that it worked. An address that already left these mails
// is told so at once (the server's `unsubscribed`), not asked again; a deleted block's link with
// nothing left to stop (the server's `gone`) says so plainly, with no button; a link that is not
// one says so with no button; a read that failed on the way offers Try again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { LinkAnswerCard, linkRead } from '../../../components/layouts/link-answer-card';
import { paths } from '../../../config/paths';
import { linkFailure } from '../../../lib/link-function';
import { useQuery } from '../../../lib/use-query';
import { confirmUnsubscribe, INVALID_LINK, readUnsubscribe } from '../api/unsubscribe';
import { ErrorText } from '../../../components/ui/error-text';
import { RetryButton } from '../../../components/ui/load-failed';

type PageState = 'loading' | 'invalid' | 'unreadable' | 'ask' | 'done' | 'already' | 'gone';

export function UnsubscribePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useQuery(['unsubscribe', token], (signal) => readUnsubscribe(token, signal));
  const [action, setAction] = useState<'idle' | 'busy' | 'done' | 'gone'>('idle');
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setAction('busy');
    setError(null);
    try {
      // the block may have been deleted since the page read the link
      setAction((await confirmUnsubscribe(token)).gone ? 'gone' : 'done');
    } catch (cause) {
      setError(linkFailure(cause, t('unsubscribe.invalid')));
      setAction('idle');
    }
  };

  const data = info.data;
  const read = linkRead(info, INVALID_LINK);
  const state: PageState =
    action === 'done' || action === 'gone'
      ? action
      : read !== 'read'
        ? read
        : data?.gone
          ? 'gone'
          : data?.unsubscribed
            ? 'already'
            : 'ask';

  const what = !data
    ? ''
    : data.scope !== 'letter'
      ? t(`unsubscribe.what.${data.scope}`, { block: data.blockName ?? t('common.untitled') })
      : // a letter by what its mail showed: the block's name is the owner's own, never sent
        !data.sender
        ? t('unsubscribe.what.letterUnknown')
        : data.title
          ? t('unsubscribe.what.letterTitled', { sender: data.sender, title: data.title })
          : t('unsubscribe.what.letter', { sender: data.sender });
  const heading =
    state === 'done'
      ? t('unsubscribe.titleDone')
      : state === 'already'
        ? t('unsubscribe.titleAlready')
        : state === 'gone'
          ? t('unsubscribe.titleGone')
          : state === 'invalid' || state === 'unreadable'
            ? t('unsubscribe.titleInvalid')
            : t('unsubscribe.title');

  return (
    <LinkAnswerCard
      className="unsubscribe-page"
      note={t('unsubscribe.footer')}
      state={state}
      picture={
        state === 'done' || state === 'already' || state === 'gone'
          ? 'mail-done'
          : state === 'invalid' || state === 'unreadable'
            ? 'mail-problem'
            : 'mail'
      }
      heading={heading}
      // The Unsubscribe button goes away with the answer: focus goes to the heading that says
      // what happened, not to the page's body.
      focusHeading={state === 'done' || (state === 'gone' && action === 'gone')}
      problem={state === 'invalid' || state === 'unreadable' ? t(`unsubscribe.${state}`) : null}
      error={error ? <ErrorText>{t('unsubscribe.failed', { reason: error })}</ErrorText> : null}
      actions={
        <>
          <Link to={paths.home} className="button">
            {state === 'ask' ? t('common.back') : t('unsubscribe.home')}
          </Link>
          {state === 'unreadable' ? (
            <RetryButton className="button button-primary" onRetry={() => void info.reload()} />
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
        </>
      }
      after={
        state === 'done' || state === 'gone' ? (
          <p className="public-small">
            {t(state === 'done' ? 'unsubscribe.doneNote' : 'unsubscribe.goneNote')}
          </p>
        ) : null
      }
    >
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
      {state === 'gone' && data ? (
        <p className="public-lead" role={action === 'gone' ? 'status' : undefined}>
          {t('unsubscribe.gone', { email: data.email })}
        </p>
      ) : null}
      {state === 'already' && data ? (
        <>
          <p className="public-lead">{t('unsubscribe.already', { email: data.email })}</p>
          <p className="public-detail">{what}</p>
        </>
      ) : null}
    </LinkAnswerCard>
  );
}
