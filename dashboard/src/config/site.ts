// The operator's details shown in the landing footer: policy pages, contact links and, in Korean,
// the business registration information. They are build-time settings (SITE_* environment
// variables, replaced into the bundle by rollup.config.mjs and read the same way by the prerender
// step), documented in docs/self-hosting.md. Each link setting has a Korean variant (…_KO) used
// when the page is in Korean, falling back to the English one. Without them the policy links go
// to this app's own /terms and /cookies pages (in the reader's language), there are no social
// links, and no business information: never made-up addresses.
import type { Language } from '../lib/i18n';
import { paths } from './paths';

export interface SiteLink {
  label: string;
  href: string;
}

export interface KoreanBusinessInfo {
  company: string;
  representative?: string;
  registrationNumber?: string;
  mailOrderNumber?: string;
  address?: string;
  contact?: string;
}

/** What the footer links to in one language. */
export interface SiteLocale {
  /** Terms & Privacy. */
  terms: string;
  /** Cookie policy. */
  cookie: string;
  /** Contact address shown as a mailto link, when set. */
  contactEmail?: string;
  /** Social profiles, in the order given. */
  social: SiteLink[];
}

export interface SiteConfig {
  locales: Record<Language, SiteLocale>;
  /**
   * A notice shown once a session when an owner opens Send (SITE_SEND_NOTICE, _KO). The old
   * service announced the end of sending here; letters work in this one, so it is off unless set.
   */
  sendNotice?: Record<Language, string>;
  /** Shown in Korean only, and only when at least the company name is set. */
  koreanBusiness?: KoreanBusinessInfo;
}

/** The raw settings, as the environment gives them (unset or blank means "not configured"). */
export interface SiteEnv {
  SITE_TERMS_URL?: string;
  SITE_TERMS_URL_KO?: string;
  SITE_COOKIE_URL?: string;
  SITE_COOKIE_URL_KO?: string;
  SITE_CONTACT_EMAIL?: string;
  SITE_CONTACT_EMAIL_KO?: string;
  /** `Label=https://...` pairs separated by commas, e.g. `X=https://x.com/me,Instagram=https://...`. */
  SITE_SOCIAL_LINKS?: string;
  SITE_SOCIAL_LINKS_KO?: string;
  SITE_KR_COMPANY?: string;
  SITE_KR_REPRESENTATIVE?: string;
  SITE_KR_REGISTRATION_NUMBER?: string;
  SITE_KR_MAIL_ORDER_NUMBER?: string;
  SITE_KR_ADDRESS?: string;
  SITE_KR_CONTACT?: string;
  SITE_SEND_NOTICE?: string;
  SITE_SEND_NOTICE_KO?: string;
}

/** This app's own pages, in the reader's language, until the operator publishes theirs. */
export const DEFAULT_TERMS_URL = paths.terms;
export const DEFAULT_COOKIE_URL = paths.cookies;

/** Paths of this app, or absolute http(s) URLs; anything else (javascript:, data:) is refused. */
export function isSafeUrl(value: string): boolean {
  if (value.startsWith('/') && !value.startsWith('//')) return true;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * Turns the SITE_* settings into the footer's configuration. Invalid values are dropped (the
 * default is used) and reported in `problems`, which the build turns into an error.
 */
export function parseSiteConfig(env: SiteEnv): { config: SiteConfig; problems: string[] } {
  const problems: string[] = [];
  const text = (key: keyof SiteEnv) => env[key]?.trim() || undefined;
  const url = (key: keyof SiteEnv) => {
    const value = text(key);
    if (value === undefined) return undefined;
    if (isSafeUrl(value)) return value;
    problems.push(`${key}: "${value}" is not an http(s) URL or a path starting with /`);
    return undefined;
  };

  const email = (key: 'SITE_CONTACT_EMAIL' | 'SITE_CONTACT_EMAIL_KO') => {
    const value = text(key);
    if (value === undefined || EMAIL.test(value)) return value;
    problems.push(`${key}: "${value}" is not an email address`);
    return undefined;
  };
  const socialLinks = (key: 'SITE_SOCIAL_LINKS' | 'SITE_SOCIAL_LINKS_KO') => {
    const value = text(key);
    if (value === undefined) return undefined;
    const links: SiteLink[] = [];
    for (const entry of value.split(',')) {
      if (!entry.trim()) continue;
      const at = entry.indexOf('=');
      const label = at > 0 ? entry.slice(0, at).trim() : '';
      const href = at > 0 ? entry.slice(at + 1).trim() : '';
      if (!label || !isSafeUrl(href)) {
        problems.push(`${key}: "${entry.trim()}" is not Label=https://...`);
        continue;
      }
      links.push({ label, href });
    }
    return links;
  };

  const en: SiteLocale = {
    terms: url('SITE_TERMS_URL') ?? DEFAULT_TERMS_URL,
    cookie: url('SITE_COOKIE_URL') ?? DEFAULT_COOKIE_URL,
    contactEmail: email('SITE_CONTACT_EMAIL'),
    social: socialLinks('SITE_SOCIAL_LINKS') ?? [],
  };
  // Korean settings where given, else the English ones (an empty SITE_SOCIAL_LINKS_KO, like any
  // blank value, counts as unset)
  const ko: SiteLocale = {
    terms: url('SITE_TERMS_URL_KO') ?? en.terms,
    cookie: url('SITE_COOKIE_URL_KO') ?? en.cookie,
    contactEmail: email('SITE_CONTACT_EMAIL_KO') ?? en.contactEmail,
    social: socialLinks('SITE_SOCIAL_LINKS_KO') ?? en.social,
  };

  const company = text('SITE_KR_COMPANY');
  const koreanBusiness: KoreanBusinessInfo | undefined = company
    ? {
        company,
        representative: text('SITE_KR_REPRESENTATIVE'),
        registrationNumber: text('SITE_KR_REGISTRATION_NUMBER'),
        mailOrderNumber: text('SITE_KR_MAIL_ORDER_NUMBER'),
        address: text('SITE_KR_ADDRESS'),
        contact: text('SITE_KR_CONTACT'),
      }
    : undefined;
  if (!company) {
    for (const key of [
      'SITE_KR_REPRESENTATIVE',
      'SITE_KR_REGISTRATION_NUMBER',
      'SITE_KR_MAIL_ORDER_NUMBER',
      'SITE_KR_ADDRESS',
      'SITE_KR_CONTACT',
    ] as const) {
      if (text(key)) problems.push(`${key} is set but SITE_KR_COMPANY is not`);
    }
  }

  const notice = text('SITE_SEND_NOTICE');
  const sendNotice = notice ? { en: notice, ko: text('SITE_SEND_NOTICE_KO') ?? notice } : undefined;

  return { config: { locales: { en, ko }, koreanBusiness, sendNotice }, problems };
}

// Each variable is named in full so the bundler can replace it with its build-time value.
export const siteEnv: SiteEnv = {
  SITE_TERMS_URL: process.env.SITE_TERMS_URL,
  SITE_TERMS_URL_KO: process.env.SITE_TERMS_URL_KO,
  SITE_COOKIE_URL: process.env.SITE_COOKIE_URL,
  SITE_COOKIE_URL_KO: process.env.SITE_COOKIE_URL_KO,
  SITE_CONTACT_EMAIL: process.env.SITE_CONTACT_EMAIL,
  SITE_CONTACT_EMAIL_KO: process.env.SITE_CONTACT_EMAIL_KO,
  SITE_SOCIAL_LINKS: process.env.SITE_SOCIAL_LINKS,
  SITE_SOCIAL_LINKS_KO: process.env.SITE_SOCIAL_LINKS_KO,
  SITE_KR_COMPANY: process.env.SITE_KR_COMPANY,
  SITE_KR_REPRESENTATIVE: process.env.SITE_KR_REPRESENTATIVE,
  SITE_KR_REGISTRATION_NUMBER: process.env.SITE_KR_REGISTRATION_NUMBER,
  SITE_KR_MAIL_ORDER_NUMBER: process.env.SITE_KR_MAIL_ORDER_NUMBER,
  SITE_KR_ADDRESS: process.env.SITE_KR_ADDRESS,
  SITE_KR_CONTACT: process.env.SITE_KR_CONTACT,
  SITE_SEND_NOTICE: process.env.SITE_SEND_NOTICE,
  SITE_SEND_NOTICE_KO: process.env.SITE_SEND_NOTICE_KO,
};

/**
 * The configuration. The browser build gets it parsed at build time (PARSED_SITE_CONFIG, the JSON
 * text rollup.config.mjs puts in place of the name, from this module's own parseSiteConfig), so
 * no visitor downloads the parser; Node (the prerender step, tests) parses the settings here.
 */
const parsedAtBuild = process.env.PARSED_SITE_CONFIG;
export const site: SiteConfig = parsedAtBuild
  ? (JSON.parse(parsedAtBuild) as SiteConfig)
  : parseSiteConfig(siteEnv).config;
