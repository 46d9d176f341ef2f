// GET /health, /settings and /.well-known/jwks.json: what a client asks before anything else.
import type { Hono } from 'hono';
import type { AuthDeps, AuthEnv } from '../context.ts';
import { on } from './route.ts';

/** The providers a client may offer: Google and Apple for owners, anonymous for visitors. */
function external(deps: AuthDeps): Record<string, boolean> {
  const off = [
    'azure',
    'bitbucket',
    'discord',
    'facebook',
    'figma',
    'fly',
    'github',
    'gitlab',
    'keycloak',
    'kakao',
    'linkedin',
    'linkedin_oidc',
    'notion',
    'spotify',
    'slack',
    'slack_oidc',
    'workos',
    'twitch',
    'twitter',
    'phone',
    'zoom',
  ];
  return {
    ...Object.fromEntries(off.map((name) => [name, false])),
    anonymous_users: true,
    apple: true,
    google: true,
    email: deps.settings.emailEnabled,
  };
}

export function settingsRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  on(app, '/health', {
    GET: (c) =>
      c.json({ version: 'local', name: 'GoTrue', description: 'Reaction Blocks local auth' }),
  });
  on(app, '/settings', {
    GET: (c) =>
      c.json({
        external: external(deps),
        disable_signup: false,
        mailer_autoconfirm: deps.settings.mailerAutoconfirm,
        phone_autoconfirm: false,
        sms_provider: '',
        saml_enabled: false,
      }),
  });
  // HS256 only: no public keys to publish (auth-js then verifies through GET /user)
  on(app, '/.well-known/jwks.json', { GET: (c) => c.json({ keys: [] }) });
}
