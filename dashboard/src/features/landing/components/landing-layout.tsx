import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

export function LandingLayout() {
  const { t } = useTranslation();
  return (
    <div className="landing">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <NavBar />
      <main id="main" className="landing-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
