import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Logo } from '../../../components/ui/logo';
import { paths } from '../../../config/paths';
import { useDisclosure } from '../../../lib/use-disclosure';

/** Scroll offset after which the bar gets its background (px). */
export const NAV_BACKGROUND_THRESHOLD = 120;

interface NavItem {
  to: string;
  label: string;
}

/** The bar's links, one list item each (the wide bar's and the menu's lists). */
function NavItems({ links }: { links: NavItem[] }) {
  return links.map((link) => (
    <li key={link.to}>
      <NavLink to={link.to} className="nav-link">
        {link.label}
      </NavLink>
    </li>
  ));
}

export function NavBar() {
  const { t } = useTranslation();
  const [scrolled, setScrolled] = useState(false);
  const menu = useDisclosure();
  const location = useLocation();
  const [lastPath, setLastPath] = useState(location.pathname);

  // Close the hamburger menu on navigation.
  if (lastPath !== location.pathname) {
    setLastPath(location.pathname);
    menu.setOpen(false);
  }

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAV_BACKGROUND_THRESHOLD);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const links: NavItem[] = [
    { to: paths.reaction, label: t('nav.reaction') },
    { to: paths.showcase, label: t('nav.showcase') },
    { to: paths.pricing, label: t('nav.pricing') },
  ];
  const mobileLinks: NavItem[] = [
    { to: paths.reaction, label: t('nav.reaction') },
    { to: paths.send, label: t('nav.send') },
    { to: paths.pricing, label: t('nav.pricing') },
  ];

  return (
    <header
      className={['nav-bar', scrolled || menu.open ? 'nav-bar-solid' : ''].join(' ')}
      data-scrolled={scrolled}
    >
      <nav className="nav-inner" aria-label={t('nav.label')}>
        <Logo />
        <ul className="nav-links">
          <NavItems links={links} />
        </ul>
        <Link to={paths.login} className="button button-primary nav-start">
          {t('nav.start')}
        </Link>
        <button
          {...menu.toggleProps}
          className="nav-hamburger"
          aria-label={menu.open ? t('nav.closeMenu') : t('nav.openMenu')}
        >
          <span aria-hidden="true" className="hamburger-icon" />
        </button>
      </nav>
      <div
        id={menu.panelId}
        className="nav-mobile"
        hidden={!menu.open}
        onKeyDown={(event) => {
          if (event.key === 'Escape') menu.dismiss();
        }}
      >
        <ul>
          <NavItems links={mobileLinks} />
          <li>
            <Link to={paths.login} className="button button-primary">
              {t('nav.start')}
            </Link>
          </li>
        </ul>
      </div>
    </header>
  );
}
