// /oauth/{service}: where Notion or a Cafe24 mall sends the popup back after its authorise page.
// It reads the code, has the server exchange it (set-notion-token or set-cafe24, with the state
// it signed), tells the window that opened the popup, then closes; a window that cannot close
// goes to the site root (spec).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../../components/ui/page-heading';
import { Spinner } from '../../../components/ui/spinner';
import {
  integrationReason,
  registerIntegrationTranslations,
} from '../../../components/integrations/texts';
import { paths } from '../../../config/paths';
import {
  announceConnection,
  completeConnection,
  isOAuthService,
  type OAuthService,
} from '../../../lib/integrations';
import { ErrorText } from '../../../components/ui/error-text';

registerIntegrationTranslations();

type Phase = 'working' | 'done' | 'cancelled' | 'failed' | 'unsupported';

export interface OAuthReturnPageProps {
  complete?: typeof completeConnection;
  /** How long the success message shows before the window closes (ms). */
  closeDelay?: number;
}

export function OAuthReturnPage({
  complete = completeConnection,
  closeDelay = 800,
}: OAuthReturnPageProps) {
  const { t } = useTranslation();
  const { service = '' } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const known: OAuthService | null = isOAuthService(service) ? service : null;
  const name =
    known === 'notion'
      ? t('integrations.notion')
      : known === 'cafe24'
        ? t('integrations.cafe24.name')
        : service;
  const code = params.get('code');
  const state = params.get('state');
  const denied = params.get('error');
  // what the address alone decides; the server's answer moves on from 'working'
  const initial: Phase = !known
    ? 'unsupported'
    : denied
      ? 'cancelled'
      : !code || !state
        ? 'failed'
        : 'working';
  const [answer, setAnswer] = useState<{ phase: Phase; reason: string } | null>(null);
  const phase = answer?.phase ?? initial;
  const reason =
    answer?.reason ??
    (initial === 'failed' ? t('integrations.oauth.missingCode', { service: name }) : '');

  useEffect(() => {
    if (initial === 'unsupported' || !known) return;
    if (initial === 'cancelled') {
      announceConnection({ status: 'cancelled' }, known);
      return;
    }
    if (initial === 'failed') {
      announceConnection(
        { status: 'failed', message: t('integrations.oauth.missingCode', { service: name }) },
        known,
      );
      return;
    }
    let alive = true;
    const close = () => {
      window.close();
      // still open (not a popup): the site root, as the spec says
      window.setTimeout(() => {
        if (alive && !window.closed) navigate(paths.home, { replace: true });
      }, 1500);
    };
    complete(known, code!, state!)
      .then(({ workspaceName }) => {
        if (!alive) return;
        setAnswer({ phase: 'done', reason: '' });
        announceConnection({ status: 'connected', workspaceName }, known);
        window.setTimeout(close, closeDelay);
      })
      .catch((cause: unknown) => {
        if (!alive) return;
        setAnswer({ phase: 'failed', reason: integrationReason(t, cause) });
        announceConnection({ status: 'failed', message: integrationReason(t, cause) }, known);
      });
    return () => {
      alive = false;
    };
  }, [initial, known, name, code, state, complete, closeDelay, navigate, t]);

  return (
    <main className="oauth-return" id="main">
      <div className="oauth-return-card">
        <PageHeading>{t('integrations.oauth.title', { service: name })}</PageHeading>
        {phase === 'working' ? (
          <Spinner label={t('integrations.oauth.working', { service: name })} />
        ) : null}
        <p role="status" aria-live="polite">
          {phase === 'done'
            ? t('integrations.oauth.done', { service: name })
            : phase === 'cancelled'
              ? t('integrations.oauth.cancelled', { service: name })
              : ''}
        </p>
        {phase === 'failed' ? (
          <ErrorText>{t('integrations.oauth.failed', { service: name, reason })}</ErrorText>
        ) : null}
        {phase === 'unsupported' ? (
          <ErrorText>{t('integrations.oauth.unsupported')}</ErrorText>
        ) : null}
        {phase !== 'working' ? (
          <p className="oauth-return-actions">
            <button type="button" className="button" onClick={() => window.close()}>
              {t('integrations.oauth.close')}
            </button>{' '}
            <Link to={paths.profileIntegration} className="button button-ghost">
              {t('integrations.oauth.back')}
            </Link>
          </p>
        ) : null}
      </div>
    </main>
  );
}
