// The signed-in shell: top bar (logo or back button), user menu, side menu, help widget.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { paths, SEND_MODES } from '../../config/paths';
import { REACTION_TYPES } from '../../lib/db-types';
import { useSession } from '../../lib/session';
import { breakpoints, useMediaQuery } from '../../lib/use-media-query';
import { registerConsentTranslations } from '../../locales/consent';
import { registerSignedInTranslations } from '../../locales/signed-in';
import { Logo } from '../ui/logo';
import { Menu } from '../ui/menu';
import { HelpWidget } from './help-widget';
import { BlockTypeIcon } from '../ui/block-type-icon';
import { ArrowLeft, Blocks, Send, Users } from '../ui/icons';

registerSignedInTranslations();
registerConsentTranslations();

function UserMenu() {
  const { t } = useTranslation();
  const { user, profile, signOut } = useSession();
  const navigate = useNavigate();
  const mobile = useMediaQuery(`(max-width: ${breakpoints.mobile}px)`);
  const name = profile?.name || user?.email || '';
  const photo = profile?.photo_url || (user?.user_metadata?.avatar_url as string | undefined);
  const items = [
    ...(mobile
      ? []
      : [{ id: 'profile', label: t('shell.profile'), onSelect: () => navigate(paths.profile) }]),
    {
      id: 'logout',
      label: t('shell.logout'),
      onSelect: () => {
        void signOut().then(() => navigate(paths.home));
      },
    },
  ];
  return (
    <Menu
      label={t('shell.userMenu')}
      className="user-menu"
      button={
        photo ? (
          <img className="avatar" src={photo} alt="" width={32} height={32} />
        ) : (
          <span className="avatar avatar-initial" aria-hidden="true">
            {name.slice(0, 1).toUpperCase() || '?'}
          </span>
        )
      }
      items={items}
    />
  );
}

export function TopBar() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const onDashboard = pathname === paths.dashboard || pathname.startsWith(`${paths.dashboard}/`);
  // spec: on purchase paths the back button goes to the plan page, labelled Plan
  const onPurchase = pathname === paths.purchase || pathname.startsWith(`${paths.purchase}/`);
  return (
    <header className="top-bar">
      {onDashboard ? (
        <Logo />
      ) : (
        <Link
          to={onPurchase ? paths.profilePlan : paths.dashboardReaction}
          className="button button-ghost back-button"
        >
          <ArrowLeft size={18} /> {onPurchase ? t('shell.plan') : t('shell.back')}
        </Link>
      )}
      <UserMenu />
    </header>
  );
}

export function SideMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const reactionActive = pathname.startsWith(paths.dashboardReaction);
  const sendActive = pathname.startsWith(paths.dashboardSend);
  return (
    <nav className="side-menu" aria-label={t('shell.sideMenu')}>
      <ul>
        <li>
          <NavLink to={paths.dashboardReaction} end className="side-link">
            <Blocks size={18} />
            {t('shell.reaction')}
          </NavLink>
          {reactionActive ? (
            <ul className="side-sub">
              {REACTION_TYPES.map((type) => (
                <li key={type}>
                  <NavLink
                    to={paths.dashboardReactionType(type)}
                    className="side-link side-sub-link"
                  >
                    <BlockTypeIcon type={type} size={18} />
                    {t(`blockTypes.${type}`)}
                  </NavLink>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
        <li>
          <NavLink to={paths.dashboardSend} end className="side-link">
            <Send size={18} />
            {t('shell.send')}
          </NavLink>
          {sendActive ? (
            <ul className="side-sub">
              {SEND_MODES.map((mode) => (
                <li key={mode}>
                  <NavLink to={paths.dashboardSendType(mode)} className="side-link side-sub-link">
                    <BlockTypeIcon type={`${mode}_letter`} size={18} />
                    {t(`shell.sendTypes.${mode}`)}
                  </NavLink>
                </li>
              ))}
            </ul>
          ) : null}
        </li>
        <li>
          <NavLink to={paths.audience} className="side-link">
            <Users size={18} />
            {t('shell.audience')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

export function ProfileMenu() {
  const { t } = useTranslation();
  return (
    <nav className="side-menu" aria-label={t('shell.profile')}>
      <ul>
        <li>
          <NavLink to={paths.profile} end className="side-link">
            {t('profile.title')}
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.profileEmail} end className="side-link">
            {t('shell.senderEmails')}
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.profileIntegration} end className="side-link">
            {t('shell.integration')}
          </NavLink>
        </li>
        <li>
          <NavLink to={paths.profilePlan} end className="side-link">
            {t('shell.plan')}
          </NavLink>
        </li>
      </ul>
    </nav>
  );
}

export function DashboardLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const onProfile = pathname.startsWith(paths.profile);
  // the purchase screens show their own step list instead of a side menu (spec)
  const onPurchase = pathname === paths.purchase || pathname.startsWith(`${paths.purchase}/`);
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <TopBar />
      <div className="app-body">
        {onPurchase ? null : onProfile ? <ProfileMenu /> : <SideMenu />}
        <main id="main" className="app-main" tabIndex={-1}>
          {children}
        </main>
      </div>
      <HelpWidget />
    </div>
  );
}
