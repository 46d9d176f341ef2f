import { describe, expect, it } from 'vitest';
import { DEFAULT_COOKIE_URL, DEFAULT_TERMS_URL, isSafeUrl, parseSiteConfig } from './site';

describe('parseSiteConfig', () => {
  it("links the policies to the app's own pages and shows no business information when unset", () => {
    const { config, problems } = parseSiteConfig({});
    expect(problems).toEqual([]);
    expect([DEFAULT_TERMS_URL, DEFAULT_COOKIE_URL]).toEqual(['/terms', '/cookies']);
    const unset = { terms: '/terms', cookie: '/cookies', contactEmail: undefined, social: [] };
    expect(config.locales).toEqual({ en: unset, ko: unset });
    expect(config.koreanBusiness).toBeUndefined();
  });

  it('takes every link setting per language, Korean falling back to English', () => {
    const { config, problems } = parseSiteConfig({
      SITE_TERMS_URL: 'https://example.com/terms',
      SITE_COOKIE_URL_KO: 'https://example.com/ko/cookies',
      SITE_CONTACT_EMAIL: 'hello@example.com',
      SITE_CONTACT_EMAIL_KO: '안녕@example.kr',
      SITE_SOCIAL_LINKS: 'X=https://x.com/example',
      SITE_SOCIAL_LINKS_KO: 'Naver Blog=https://blog.naver.com/example',
    });
    expect(problems).toEqual([]);
    expect(config.locales.en).toEqual({
      terms: 'https://example.com/terms',
      cookie: '/cookies',
      contactEmail: 'hello@example.com',
      social: [{ label: 'X', href: 'https://x.com/example' }],
    });
    expect(config.locales.ko).toEqual({
      terms: 'https://example.com/terms',
      cookie: 'https://example.com/ko/cookies',
      contactEmail: '안녕@example.kr',
      social: [{ label: 'Naver Blog', href: 'https://blog.naver.com/example' }],
    });
    // a Korean list left blank is unset: the English links show
    expect(
      parseSiteConfig({ SITE_SOCIAL_LINKS: 'X=https://x.com/e', SITE_SOCIAL_LINKS_KO: ' ' }).config
        .locales.ko.social,
    ).toEqual([{ label: 'X', href: 'https://x.com/e' }]);
  });

  it('uses Korean policy pages in ko, the English ones when only those are set', () => {
    const { config } = parseSiteConfig({
      SITE_TERMS_URL: 'https://example.com/terms',
      SITE_TERMS_URL_KO: 'https://example.com/ko/terms',
      SITE_COOKIE_URL: ' /cookies ',
    });
    expect(config.locales.en).toMatchObject({
      terms: 'https://example.com/terms',
      cookie: '/cookies',
    });
    expect(config.locales.ko).toMatchObject({
      terms: 'https://example.com/ko/terms',
      cookie: '/cookies',
    });
  });

  it('reads the contact email and the social links in order', () => {
    const { config, problems } = parseSiteConfig({
      SITE_CONTACT_EMAIL: 'hello@example.com',
      SITE_SOCIAL_LINKS: 'X=https://x.com/example, Instagram = https://instagram.com/example,',
    });
    expect(problems).toEqual([]);
    expect(config.locales.en.contactEmail).toBe('hello@example.com');
    expect(config.locales.en.social).toEqual([
      { label: 'X', href: 'https://x.com/example' },
      { label: 'Instagram', href: 'https://instagram.com/example' },
    ]);
  });

  it('refuses unsafe or malformed values and names them', () => {
    const { config, problems } = parseSiteConfig({
      SITE_TERMS_URL: 'javascript:alert(1)',
      SITE_COOKIE_URL: '//evil.example/cookies',
      SITE_CONTACT_EMAIL: 'not an email',
      SITE_SOCIAL_LINKS: 'X=data:text/html;hi,https://no-label.example',
      SITE_KR_ADDRESS: '서울',
    });
    expect(config.locales.en).toEqual({
      terms: '/terms',
      cookie: '/cookies',
      contactEmail: undefined,
      social: [],
    });
    expect(config.koreanBusiness).toBeUndefined();
    expect(problems).toHaveLength(6);
    expect(problems.join('\n')).toMatch(/SITE_TERMS_URL: "javascript:alert\(1\)"/);
    expect(problems.join('\n')).toMatch(/SITE_KR_ADDRESS is set but SITE_KR_COMPANY is not/);
  });

  it('keeps the Korean business fields that are set once the company is', () => {
    const { config } = parseSiteConfig({
      SITE_KR_COMPANY: '리액션블록스',
      SITE_KR_REGISTRATION_NUMBER: '123-45-67890',
      SITE_KR_ADDRESS: ' ',
    });
    expect(config.koreanBusiness).toEqual({
      company: '리액션블록스',
      representative: undefined,
      registrationNumber: '123-45-67890',
      mailOrderNumber: undefined,
      address: undefined,
      contact: undefined,
    });
  });

  it('accepts app paths and http(s) URLs only', () => {
    expect(isSafeUrl('/help')).toBe(true);
    expect(isSafeUrl('https://example.com')).toBe(true);
    expect(isSafeUrl('mailto:a@b.c')).toBe(false);
    expect(isSafeUrl('help')).toBe(false);
  });
});
