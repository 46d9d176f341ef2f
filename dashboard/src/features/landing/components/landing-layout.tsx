import { Outlet } from 'react-router-dom';
import { SkipLink } from '../../../components/layouts/skip-link';
import { Footer } from './footer';
import { NavBar } from './nav-bar';

export function LandingLayout() {
  return (
    <div className="landing">
      <SkipLink />
      <NavBar />
      <main id="main" className="landing-main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
