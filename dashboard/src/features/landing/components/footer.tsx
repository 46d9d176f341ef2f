import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { site, type KoreanBusinessInfo, type SiteConfig } from '../../../config/site';
import { LANGUAGES, setLanguage, toLanguage, type Language } from '../../../lib/i18n';

export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const value = toLanguage(i18n.language) ?? 'en';
  return (
    <div className="language-picker">
      <label htmlFor={id}>{t('footer.language')}</label>
      <select
        id={id}
        value={value}
        onChange={(event) => void setLanguage(event.target.value as Language)}
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`languages.${lng}`)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A footer link: where it goes and its text. */
interface FooterItem {
  href: string;
  label: string;
}

/** A path of this app through the router; a mail address as it is; an outside page in a new tab. */
function FooterLink({ href, label }: FooterItem) {
  if (href.startsWith('/')) return <Link to={href}>{label}</Link>;
  if (href.startsWith('mailto:')) return <a href={href}>{label}</a>;
  return (
    <a href={href} target="_blank" rel="noreferrer noopener">
      {label}
    </a>
  );
}

/** Korean business registration details (labels are Korean: the section only shows in ko). */
function KoreanBusiness({ info, label }: { info: KoreanBusinessInfo; label: string }) {
  const rows: [string, string | undefined][] = [
    ['상호', info.company],
    ['대표', info.representative],
    ['사업자등록번호', info.registrationNumber],
    ['통신판매업 신고번호', info.mailOrderNumber],
    ['주소', info.address],
    ['문의', info.contact],
  ];
  return (
    <section className="footer-business" aria-label={label}>
      <dl>
        {rows
          .filter((row): row is [string, string] => !!row[1])
          .map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
      </dl>
    </section>
  );
}

/** A column of links under its heading, a navigation region named by the heading. */
function FooterColumn({ title, links }: { title: string; links: FooterItem[] }) {
  return (
    <nav className="footer-column" aria-label={title}>
      <h2 className="footer-heading">{title}</h2>
      <ul>
        {links.map((link) => (
          <li key={`${link.href} ${link.label}`}>
            <FooterLink {...link} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Footer({ config = site }: { config?: SiteConfig }) {
  const { t, i18n } = useTranslation();
  const lng = toLanguage(i18n.language) ?? 'en';
  const links = config.locales[lng];
  return (
    <footer className="footer">
      <div className="footer-inner">
        <div className="footer-column">
          <LanguagePicker />
        </div>
        <FooterColumn
          title={t('footer.product')}
          links={[
            { href: paths.reaction, label: t('nav.reaction') },
            { href: paths.send, label: t('nav.send') },
          ]}
        />
        <FooterColumn
          title={t('footer.contact')}
          links={[
            ...(links.contactEmail
              ? [{ href: `mailto:${links.contactEmail}`, label: links.contactEmail }]
              : []),
            ...links.social,
            { href: paths.help, label: t('help.title') },
          ]}
        />
        <FooterColumn
          title={t('footer.policies')}
          links={[
            { href: links.terms, label: t('footer.terms') },
            { href: links.cookie, label: t('footer.cookie') },
          ]}
        />
      </div>
      {lng === 'ko' && config.koreanBusiness ? (
        <KoreanBusiness info={config.koreanBusiness} label={t('footer.business')} />
      ) : null}
      {/* The year is the visitor's; a prerendered page may carry the build's. */}
      <p className="footer-copyright" suppressHydrationWarning>
        {t('footer.copyright', { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
