import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { Logo } from '../../../components/ui/logo';
import { paths } from '../../../config/paths';
import { failureReason } from '../../../lib/errors';
import { isEligibleUser, useSession } from '../../../lib/session';
import { signInWithProvider, type TOAuthProvider } from '../api/sign-in-with-provider';
import { AppleMark, GoogleMark } from './provider-marks';
import { PageHeading } from '../../../components/ui/page-heading';
import { ErrorText } from '../../../components/ui/error-text';

/** The sign-in buttons, in this order, each with its provider's mark. */
const PROVIDERS = [
  { provider: 'google', Mark: GoogleMark },
  { provider: 'apple', Mark: AppleMark },
] as const satisfies readonly { provider: TOAuthProvider; Mark: ComponentType }[];

/**
 * An OAuth error the provider sent back (query for PKCE, hash for the implicit flow), as a
 * failure with its code (`access_denied`, `server_error`, …) and the provider's English words.
 */
export function oauthErrorFrom(
  search: string,
  hash: string,
): { code: string; message: string } | null {
  for (const source of [search, hash.replace(/^#/, '')]) {
    const params = new URLSearchParams(source);
    const code = params.get('error');
    if (code) return { code, message: params.get('error_description') ?? code };
  }
  return null;
}

/** The sign-in answers with a text of their own; anything else reads as failureReason says. */
const SIGN_IN_FAILURES = {
  access_denied: 'login.denied',
  // the return's code was spent by a page left before the answer, or the flow began elsewhere
  flow_state_not_found: 'login.unfinished',
  flow_state_expired: 'login.unfinished',
  pkce_code_verifier_not_found: 'login.unfinished',
};

/**
 * Where to come back after signing in: the signed-in page the login is shown in place of,
 * without the provider's answer of an earlier try (error, code); none on /login itself.
 */
export function returnPath(pathname: string, search: string): string | undefined {
  if (pathname === paths.login) return undefined;
  const params = new URLSearchParams(search);
  for (const key of ['error', 'error_code', 'error_description', 'code', 'state'])
    params.delete(key);
  const query = params.toString();
  return `${pathname}${query ? `?${query}` : ''}`;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { user, signInFailure } = useSession();
  const location = useLocation();
  const [pending, setPending] = useState<TOAuthProvider | null>(null);
  const [error, setError] = useState<unknown>(
    () => oauthErrorFrom(location.search, location.hash) ?? signInFailure ?? null,
  );

  const start = async (provider: TOAuthProvider) => {
    if (pending) return;
    setPending(provider);
    setError(null);
    try {
      // shown in place of a signed-in page: come back to it after signing in
      await signInWithProvider(provider, returnPath(location.pathname, location.search));
      // The browser is now leaving for the provider's page.
    } catch (cause) {
      setError(cause);
      setPending(null);
    }
  };

  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <Logo />
        <PageHeading>{t('login.title')}</PageHeading>
        {user && !isEligibleUser(user) ? <p className="notice">{t('login.notEligible')}</p> : null}
        <div className="login-buttons">
          {PROVIDERS.map(({ provider, Mark }) => (
            <button
              key={provider}
              type="button"
              className={`button button-provider button-${provider}`}
              onClick={() => void start(provider)}
              aria-busy={pending === provider}
              disabled={pending !== null}
            >
              <Mark />
              {t(`login.${provider}`)}
            </button>
          ))}
        </div>
        {error ? (
          <ErrorText>
            {t('login.error', { message: failureReason(error, SIGN_IN_FAILURES) })}
          </ErrorText>
        ) : null}
        <Link to={paths.help} className="login-help">
          {t('login.help')}
        </Link>
      </div>
    </main>
  );
}
