// /unsubscribe?token=...: the page a mail's Unsubscribe link opens (public). It says what the
// link stops and for which address (masked), with Back (to /) and Confirm (spec). After the
// confirmation it says it is done and offers the way home, instead of leaving at once as the
// old service did: a person should see that it worked.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { messageOf } from '../../../lib/errors';
import { useQuery } from '../../../lib/use-query';
import { confirmUnsubscribe, readUnsubscribe } from '../api/unsubscribe';

export function UnsubscribePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useQuery(['unsubscribe', token], () => readUnsubscribe(token));
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    setState('busy');
    setError(null);
    try {
      await confirmUnsubscribe(token);
      setState('done');
    } catch (cause) {
      setError(messageOf(cause));
      setState('idle');
    }
  };

  const data = info.data;
  const what = data
    ? t(`unsubscribe.what.${data.scope}`, { block: data.blockName ?? t('common.untitled') })
    : '';

  return (
    <main id="main" className="login-page unsubscribe-page">
      <div className="login-card">
        <h1 tabIndex={-1}>{t('unsubscribe.title')}</h1>
        {info.loading && !data && !info.error ? <Spinner label={t('common.loading')} /> : null}
        {info.error ? (
          <p className="error-text" role="alert">
            {t('unsubscribe.invalid')}
          </p>
        ) : null}
        {data && state !== 'done' ? (
          <>
            <p>{t('unsubscribe.question', { email: data.email })}</p>
            <p className="hint">{what}</p>
          </>
        ) : null}
        {state === 'done' && data ? (
          <p role="status">{t('unsubscribe.done', { email: data.email })}</p>
        ) : null}
        {error ? (
          <p className="error-text" role="alert">
            {t('unsubscribe.failed', { reason: error })}
          </p>
        ) : null}
        <div className="unsubscribe-actions">
          <Link to={paths.home} className="button">
            {state === 'done' ? t('unsubscribe.home') : t('common.back')}
          </Link>
          {data && state !== 'done' ? (
            <button
              type="button"
              className="button button-primary"
              disabled={state === 'busy'}
              onClick={() => void confirm()}
            >
              {state === 'busy' ? t('unsubscribe.busy') : t('unsubscribe.confirm')}
            </button>
          ) : null}
        </div>
      </div>
    </main>
  );
}
