import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/ui/page-heading';

export function NotSupportedPage() {
  const { t } = useTranslation();
  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <PageHeading>{t('notSupported.title')}</PageHeading>
        <p>{t('notSupported.text')}</p>
        <button
          type="button"
          className="button button-primary"
          onClick={() => window.location.assign('/')}
        >
          {t('notSupported.reload')}
        </button>
      </div>
    </main>
  );
}
