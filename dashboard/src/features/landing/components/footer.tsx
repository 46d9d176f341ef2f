import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { koreanBusinessInfo, policyLinks, socialLinks } from '../../../config/site';
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

export function Footer() {
  const { t, i18n } = useTranslation();
  const lng = toLanguage(i18n.language) ?? 'en';
  const policies = policyLinks[lng];
  return (
    <footer className="footer">
      <div className="footer-inner">
        <div className="footer-column">
          <LanguagePicker />
        </div>
        <nav className="footer-column" aria-label={t('footer.product')}>
          <h2 className="footer-heading">{t('footer.product')}</h2>
          <ul>
            <li>
              <Link to={paths.reaction}>{t('nav.reaction')}</Link>
            </li>
            <li>
              <Link to={paths.send}>{t('nav.send')}</Link>
            </li>
          </ul>
        </nav>
        <nav className="footer-column" aria-label={t('footer.contact')}>
          <h2 className="footer-heading">{t('footer.contact')}</h2>
          <ul>
            {socialLinks.map((link) => (
              <li key={link.id}>
                <a href={link.href} target="_blank" rel="noreferrer noopener">
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <nav className="footer-column" aria-label={t('footer.policies')}>
          <h2 className="footer-heading">{t('footer.policies')}</h2>
          <ul>
            <li>
              <a href={policies.terms} target="_blank" rel="noreferrer noopener">
                {t('footer.terms')}
              </a>
            </li>
            <li>
              <a href={policies.cookie} target="_blank" rel="noreferrer noopener">
                {t('footer.cookie')}
              </a>
            </li>
          </ul>
        </nav>
      </div>
      {lng === 'ko' ? (
        <section className="footer-business" aria-label={t('footer.business')}>
          <p>
            상호: {koreanBusinessInfo.company} · 대표: {koreanBusinessInfo.representative} ·
            사업자등록번호: {koreanBusinessInfo.registrationNumber} · 통신판매업 신고번호:{' '}
            {koreanBusinessInfo.mailOrderNumber}
          </p>
          <p>
            주소: {koreanBusinessInfo.address} · 문의: {koreanBusinessInfo.contact}
          </p>
        </section>
      ) : null}
      <p className="footer-copyright">
        {t('footer.copyright', { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}
