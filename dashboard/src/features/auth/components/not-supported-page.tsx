import { useTranslation } from 'react-i18next';

export function NotSupportedPage() {
  const { t } = useTranslation();
  return (
    <main id="main" className="login-page">
      <div className="login-card">
        <h1>{t('notSupported.title')}</h1>
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
