import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_URL, isSafeUrl, parseSiteConfig } from './site';

describe('parseSiteConfig', () => {
  it('falls back to /help for the policies and shows no business information when unset', () => {
    const { config, problems } = parseSiteConfig({});
    expect(problems).toEqual([]);
    expect(DEFAULT_POLICY_URL).toBe('/help');
    expect(config.policies).toEqual({
      en: { terms: '/help', cookie: '/help' },
      ko: { terms: '/help', cookie: '/help' },
    });
    expect(config.contactEmail).toBeUndefined();
    expect(config.social).toEqual([]);
    expect(config.koreanBusiness).toBeUndefined();
  });

  it('uses Korean policy pages in ko, the English ones when only those are set', () => {
    const { config } = parseSiteConfig({
      SITE_TERMS_URL: 'https://example.com/terms',
      SITE_TERMS_URL_KO: 'https://example.com/ko/terms',
      SITE_COOKIE_URL: ' /cookies ',
    });
    expect(config.policies.en).toEqual({ terms: 'https://example.com/terms', cookie: '/cookies' });
    expect(config.policies.ko).toEqual({
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
    expect(config.contactEmail).toBe('hello@example.com');
    expect(config.social).toEqual([
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
    expect(config.policies.en).toEqual({ terms: '/help', cookie: '/help' });
    expect(config.contactEmail).toBeUndefined();
    expect(config.social).toEqual([]);
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
