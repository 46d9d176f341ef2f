import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { paths } from '../../config/paths';

export function LogoMark() {
  return (
    <svg className="logo-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M9 11h14v9H15l-4 4v-4H9z" fill="#fff" />
    </svg>
  );
}

export function Logo() {
  const { t } = useTranslation();
  return (
    <Link to={paths.home} className="logo" aria-label={t('common.logoHome')}>
      <LogoMark />
      <span className="logo-text" aria-hidden="true">
        {t('common.appName')}
      </span>
    </Link>
  );
}
