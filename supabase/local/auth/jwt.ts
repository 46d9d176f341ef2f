// HS256 JWTs: the access tokens (with GoTrue's claims) and the signed OAuth `state`.
import { SignJWT, jwtVerify, errors, type JWTPayload } from 'jose';
import { unauthorized } from './errors.ts';

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  aud: string;
  role: string;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  aal: string;
  amr: { method: string; timestamp: number }[];
  session_id: string;
  is_anonymous: boolean;
}

/**
 * An owner's access token with the claims the elements and functions read, signed with the
 * project's secret: for scripts that make an owner with SQL and then act as them (the demo
 * letters, the letters benchmark). `expiresIn` as jose reads it ('10m', '1h').
 */
export function ownerAccessToken(
  jwtSecret: string,
  owner: { id: string; email: string; provider: string; fullName?: string },
  expiresIn: string,
): Promise<string> {
  return new SignJWT({
    role: 'authenticated',
    email: owner.email,
    aud: 'authenticated',
    app_metadata: { provider: owner.provider },
    user_metadata: owner.fullName ? { full_name: owner.fullName } : {},
    is_anonymous: false,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(owner.id)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(jwtSecret));
}

export class Jwt {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly issuer: string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async signAccessToken(
    claims: Omit<AccessTokenClaims, 'iss' | 'iat' | 'exp'>,
    expiresAt: number,
    issuedAt: number,
  ) {
    return new SignJWT({ ...claims, iss: this.issuer })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key);
  }

  /** Verifies signature and expiry; any failure is GoTrue's 401 bad_jwt. */
  async verify(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      return payload;
    } catch (err) {
      const reason =
        err instanceof errors.JWTExpired
          ? 'token has invalid claims: token is expired'
          : 'unable to parse or verify signature, token signature is invalid';
      throw unauthorized('bad_jwt', `invalid JWT: ${reason}`);
    }
  }

  /** The OAuth `state`: a short-lived JWT carrying where the flow goes back to. */
  async signState(state: OAuthState): Promise<string> {
    return new SignJWT({ ...state, purpose: 'oauth_state' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(this.key);
  }

  async verifyState(token: string): Promise<OAuthState | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (payload.purpose !== 'oauth_state') return undefined;
      const { provider, referrer, flow_state_id, linking_target_id } = payload as Record<
        string,
        unknown
      >;
      if (typeof provider !== 'string' || typeof referrer !== 'string') return undefined;
      return {
        provider,
        referrer,
        flow_state_id: typeof flow_state_id === 'string' ? flow_state_id : '',
        linking_target_id: typeof linking_target_id === 'string' ? linking_target_id : '',
      };
    } catch {
      return undefined;
    }
  }
}

export interface OAuthState {
  provider: string;
  /** the validated redirect_to */
  referrer: string;
  /** empty for the implicit flow */
  flow_state_id: string;
  /** the signed-in user an identity is being linked to (linkIdentity); empty for a sign-in */
  linking_target_id: string;
}
