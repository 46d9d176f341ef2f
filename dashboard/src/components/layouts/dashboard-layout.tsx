// The signed-in shell: top bar (logo or back button), user menu, side menu, help widget.
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { isWithin, paths, SEND_MODES } from '../../config/paths';
import { REACTION_TYPES } from '../../lib/db-types';
import { useSession } from '../../lib/session';
import { stickyBar } from '../../lib/sticky-bar';
import { breakpoints, useMediaQuery } from '../../lib/use-media-query';
import { registerConsentTranslations } from '../../locales/consent';
import { registerSignedInTranslations } from '../../locales/signed-in';
import { Logo } from '../ui/logo';
import { Menu } from '../ui/menu';
import { HelpWidget } from './help-widget';
import { SkipLink } from './skip-link';
import { BlockTypeIcon, type BlockTypeIconProps } from '../ui/block-type-icon';
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
  const onDashboard = isWithin(pathname, paths.dashboard);
  // spec: on purchase paths the back button goes to the plan page, labelled Plan
  const onPurchase = isWithin(pathname, paths.purchase);
  return (
    <header ref={stickyBar} className="top-bar">
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

/** A side menu entry and, while its section is shown, one link a type under it. */
function SideGroup({
  to,
  icon,
  label,
  items,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  items: Array<{ to: string; type: BlockTypeIconProps['type']; label: string }>;
}) {
  const open = isWithin(useLocation().pathname, to);
  return (
    <li>
      <NavLink to={to} end className="side-link">
        {icon}
        {label}
      </NavLink>
      {open ? (
        <ul className="side-sub">
          {items.map((item) => (
            <li key={item.type}>
              <NavLink to={item.to} className="side-link side-sub-link">
                <BlockTypeIcon type={item.type} size={18} />
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

export function SideMenu() {
  const { t } = useTranslation();
  return (
    <nav className="side-menu" aria-label={t('shell.sideMenu')}>
      <ul>
        <SideGroup
          to={paths.dashboardReaction}
          icon={<Blocks size={18} />}
          label={t('shell.reaction')}
          items={REACTION_TYPES.map((type) => ({
            to: paths.dashboardReactionType(type),
            type,
            label: t(`blockTypes.${type}`),
          }))}
        />
        <SideGroup
          to={paths.dashboardSend}
          icon={<Send size={18} />}
          label={t('shell.send')}
          items={SEND_MODES.map((mode) => ({
            to: paths.dashboardSendType(mode),
            type: `${mode}_letter` as const,
            label: t(`shell.sendTypes.${mode}`),
          }))}
        />
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

/** The profile's pages, in the side menu's order: the link and its text's key. */
const PROFILE_LINKS = [
  [paths.profile, 'profile.title'],
  [paths.profileEmail, 'shell.senderEmails'],
  [paths.profileIntegration, 'shell.integration'],
  [paths.profilePlan, 'shell.plan'],
] as const;

export function ProfileMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const list = useRef<HTMLUListElement>(null);
  // At phone widths the four links are one row that scrolls sideways (shell.css): the current
  // one is scrolled into it, so "Plan" on the plan page is not past the edge.
  useEffect(() => {
    const row = list.current!;
    const current = row.querySelector<HTMLElement>('[aria-current]');
    // (a negative scrollLeft is 0)
    if (current) row.scrollLeft = current.offsetLeft + current.offsetWidth - row.clientWidth;
  }, [pathname]);
  return (
    <nav className="side-menu profile-menu" aria-label={t('shell.profile')}>
      <ul ref={list}>
        {PROFILE_LINKS.map(([to, label]) => (
          <li key={to}>
            <NavLink to={to} end className="side-link">
              {t(label)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function DashboardLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const onProfile = pathname.startsWith(paths.profile);
  // the purchase screens show their own step list instead of a side menu (spec)
  const onPurchase = isWithin(pathname, paths.purchase);
  return (
    <div className="app-shell">
      <SkipLink />
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
