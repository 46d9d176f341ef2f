import type { User } from '@supabase/auth-js';
import { describe, expect, it, vi } from 'vitest';
import { AUTH_STORAGE_KEY, mayHaveSession } from './auth-storage';
import { formatWait, messageOf, failureReason, sharedMessageReason, withWait } from './errors';
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

describe('failureReason', () => {
  it("says the known answers by their code and anything else generically, never the server's English", async () => {
    initI18n();
    const error = (code: string, message: string) => ({ code, message, details: '', hint: '' });
    const cases: Array<[unknown, string, string]> = [
      [
        error('unavailable', 'The service is briefly unavailable'),
        'The service is briefly unavailable.',
        '서비스가 잠시 응답하지 않습니다.',
      ],
      [
        error('PGRST001', 'Could not connect with the database'),
        'The service is briefly unavailable.',
        '서비스가 잠시 응답하지 않습니다.',
      ],
      [
        error('08006', 'connection failure'),
        'The service is briefly unavailable.',
        '서비스가 잠시 응답하지 않습니다.',
      ],
      [
        error('', 'TypeError: Failed to fetch'),
        'The connection failed. Check it and try again.',
        '연결에 실패했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요.',
      ],
      [
        // a function's request that was not sent (invokeFunction keeps functions-js's name)
        Object.assign(new Error('Failed to send a request to the Edge Function'), {
          name: 'FunctionsFetchError',
        }),
        'The connection failed. Check it and try again.',
        '연결에 실패했습니다. 인터넷 연결을 확인하고 다시 시도해 주세요.',
      ],
      [
        error('PGRST303', 'JWT expired'),
        'Your session has ended. Sign in again, then try again.',
        '로그인이 만료되었습니다. 다시 로그인한 뒤 시도해 주세요.',
      ],
      [
        error('unauthorized', 'Sign in first'),
        'Your session has ended. Sign in again, then try again.',
        '로그인이 만료되었습니다. 다시 로그인한 뒤 시도해 주세요.',
      ],
      [
        error('PT404', "message doesn't exists"),
        'It is not there any more (removed meanwhile). Reload to see how things are now.',
        '이미 없습니다(그사이 삭제되었습니다). 새로 고침해 지금 상태를 확인해 주세요.',
      ],
      [
        error('42501', 'permission denied for table blocks'),
        'You may not do this with your account.',
        '이 계정으로는 할 수 없는 작업입니다.',
      ],
      [
        error('forbidden', 'Sign in with Google or Apple first'),
        'You may not do this with your account.',
        '이 계정으로는 할 수 없는 작업입니다.',
      ],
      [
        error('57014', 'canceling statement due to statement timeout'),
        'The server took too long. Try again in a moment.',
        '서버 응답이 너무 늦었습니다. 잠시 후 다시 시도해 주세요.',
      ],
      [
        error('23503', 'update or delete on table "blocks" violates foreign key constraint'),
        'Something went wrong on our side. Try again in a moment.',
        '서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ],
      [
        new Error('boom'),
        'Something went wrong on our side. Try again in a moment.',
        '서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ],
    ];
    const i18next = (await import('i18next')).default;
    for (const [language, column] of [
      ['en', 1],
      ['ko', 2],
    ] as const) {
      await i18next.changeLanguage(language);
      try {
        for (const row of cases) expect(failureReason(row[0]), String(row[0])).toBe(row[column]);
        // a function's 429 with a code we do not know: too many tries, and how long to wait
        expect(
          failureReason(
            Object.assign(new Error('Slow down'), {
              status: 429,
              code: 'slow_down',
              retryAfter: 120,
            }),
          ),
        ).toBe(
          language === 'en'
            ? 'Too many tries in a short time. Try again in 2 minutes.'
            : '짧은 시간에 너무 많이 시도했습니다. 2분 후 다시 시도해 주세요.',
        );
        // a caller's own code, through its own text
        expect(failureReason({ code: 'not_found' }, { not_found: 'common.retry' })).toBe(
          i18next.t('common.retry'),
        );
      } finally {
        await i18next.changeLanguage('en');
      }
    }
  });
});

describe('failureReason of a code chunk that did not load', () => {
  it('says the dashboard was updated when the browser is online, the connection when it is not', async () => {
    initI18n();
    const i18next = (await import('i18next')).default;
    // Chromium's, Firefox's and Safari's words for an import() whose chunk is gone
    const failures = [
      new TypeError(
        'Failed to fetch dynamically imported module: https://app.example/assets/schemas-1a2b.js',
      ),
      new TypeError(
        'error loading dynamically imported module: https://app.example/assets/schemas-1a2b.js',
      ),
      new TypeError('Importing a module script failed.'),
    ];
    const online = vi.spyOn(navigator, 'onLine', 'get');
    try {
      online.mockReturnValue(true);
      for (const cause of failures)
        expect(failureReason(cause), cause.message).toBe(
          'The dashboard was updated meanwhile. Reload the page, then try again.',
        );
      await i18next.changeLanguage('ko');
      expect(failureReason(failures[0])).toBe(
        '그사이 대시보드가 업데이트되었습니다. 페이지를 새로 고침한 뒤 다시 시도해 주세요.',
      );
      await i18next.changeLanguage('en');
      online.mockReturnValue(false);
      for (const cause of failures)
        expect(failureReason(cause), cause.message).toBe(
          'The connection failed. Check it and try again.',
        );
      // a plain network failure is still the connection, online or not
      online.mockReturnValue(true);
      expect(failureReason(new TypeError('Failed to fetch'))).toBe(
        'The connection failed. Check it and try again.',
      );
    } finally {
      online.mockRestore();
      await i18next.changeLanguage('en');
    }
  });
});

describe('sharedMessageReason', () => {
  it("says a shared message by its text and anything else as failureReason does, never in the server's English", async () => {
    const reason = sharedMessageReason({ expired: 'This coupon has expired' }, 'x.messages');
    const t = (key: string) => `[${key}]`;
    initI18n();
    const i18next = (await import('i18next')).default;
    expect(reason(t, new Error('This coupon has expired'))).toBe('[x.messages.expired]');
    try {
      for (const [language, text] of [
        ['en', 'Something went wrong on our side. Try again in a moment.'],
        ['ko', '서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.'],
      ] as const) {
        await i18next.changeLanguage(language);
        expect(reason(t, new Error('Stripe said: card_declined upstream'))).toBe(text);
      }
    } finally {
      await i18next.changeLanguage('en');
    }
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
