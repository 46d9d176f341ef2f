import type { User } from '@supabase/auth-js';
import { describe, expect, it } from 'vitest';
import { AUTH_STORAGE_KEY, mayHaveSession } from './auth-storage';
import { formatWait, messageOf, withWait } from './errors';
import { detectLanguage, initI18n, toLanguage } from './i18n';
import { isEligibleUser } from './session';

describe('detectLanguage', () => {
  it('prefers the locale parameter, then the stored choice, then the browser, then en', () => {
    expect(detectLanguage('?locale=ko', 'en', 'en-US')).toBe('ko');
    expect(detectLanguage('?locale=fr', 'ko', 'en-US')).toBe('ko');
    expect(detectLanguage('', null, 'ko-KR')).toBe('ko');
    expect(detectLanguage('', null, 'de-DE')).toBe('en');
    expect(detectLanguage('?locale=', null, undefined)).toBe('en');
  });

  it('accepts only en and ko', () => {
    expect(toLanguage('KO')).toBe('ko');
    expect(toLanguage('ja')).toBeNull();
  });
});

describe('messageOf', () => {
  it('reads the message of an Error, of an error object (PostgREST) and of anything else', () => {
    expect(messageOf(new Error('permission denied'))).toBe('permission denied');
    expect(messageOf({ message: 'duplicate key', code: '23505' })).toBe('duplicate key');
    expect(messageOf('offline')).toBe('offline');
    expect(messageOf(undefined)).toBe('undefined');
  });
  it("says a function's 503 unavailable in the reader's language", async () => {
    initI18n();
    const unavailable = Object.assign(new Error('The service is briefly unavailable'), {
      status: 503,
      code: 'unavailable',
      retryAfter: 2,
    });
    const i18next = (await import('i18next')).default;
    await i18next.changeLanguage('ko');
    try {
      expect(messageOf(unavailable)).toBe('서비스가 잠시 응답하지 않습니다.');
    } finally {
      await i18next.changeLanguage('en');
    }
    expect(messageOf(unavailable)).toBe('The service is briefly unavailable.');
  });
});

describe('withWait', () => {
  const t = (key: string, options?: Record<string, unknown>) =>
    key === 'common.retryIn' ? `Try again ${String(options?.in)}.` : key;
  it("adds a 429's wait to the reason, in the units the server uses", () => {
    const refusal = Object.assign(new Error('Too many coupon tries'), { retryAfter: 2520 });
    expect(withWait(t, refusal, 'Too many coupon tries')).toBe(
      'Too many coupon tries Try again in 42 minutes.',
    );
    expect(formatWait(45, 'en')).toBe('in 45 seconds');
    expect(formatWait(1200, 'ko')).toBe('20분 후');
    expect(formatWait(3 * 86_400 + 1, 'en')).toBe('in 4 days');
  });
  it('leaves a reason without a wait as it is', () => {
    expect(withWait(t, new Error('No such coupon'), 'No such coupon')).toBe('No such coupon');
  });
});

describe('isEligibleUser', () => {
  const user = (fields: Partial<User>) => ({ id: 'u', ...fields }) as User;
  const google = { provider: 'google', providers: ['google'] };
  it('admits only owners: Google or Apple, or made one by the admin API', () => {
    expect(
      isEligibleUser(user({ email: 'a@b.c', is_anonymous: false, app_metadata: google })),
    ).toBe(true);
    expect(
      isEligibleUser(
        user({
          email: 'a@b.c',
          app_metadata: { provider: 'email', providers: ['email', 'apple'] },
        }),
      ),
    ).toBe(true);
    expect(isEligibleUser(user({ email: 'a@b.c', app_metadata: { owner: true } }))).toBe(true);
    // an anonymous visitor who confirmed an email: permanent, an email identity only
    expect(
      isEligibleUser(
        user({ email: 'a@b.c', app_metadata: { provider: 'email', providers: ['email'] } }),
      ),
    ).toBe(false);
    expect(isEligibleUser(user({ email: 'a@b.c', is_anonymous: true, app_metadata: google }))).toBe(
      false,
    );
    expect(isEligibleUser(user({ email: '', app_metadata: google }))).toBe(false);
    expect(isEligibleUser(null)).toBe(false);
  });
});

describe('mayHaveSession', () => {
  it('is false for a first visit, so the landing skips supabase-js', () => {
    expect(mayHaveSession('', '')).toBe(false);
    expect(mayHaveSession('?locale=ko&focus=button', '#top')).toBe(false);
  });

  it('is true with a stored session or on the return from a provider', () => {
    expect(mayHaveSession('?code=abc', '')).toBe(true);
    expect(mayHaveSession('?error=access_denied', '')).toBe(true);
    expect(mayHaveSession('', '#access_token=x&refresh_token=y')).toBe(true);
    window.localStorage.setItem(AUTH_STORAGE_KEY, '{"access_token":"x"}');
    expect(mayHaveSession('', '')).toBe(true);
  });
});

describe('initI18n', () => {
  it('remembers a ?locale= choice so it survives the sign-in redirect', () => {
    window.history.replaceState(null, '', '/login?locale=ko');
    try {
      initI18n();
      expect(window.localStorage.getItem('reaction.language')).toBe('ko');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
});
