// The route table. Every screen module is lazy, so the landing never loads the signed-in app.
import { lazy, Suspense, useEffect, useRef, useState, type ReactNode } from 'react';
import { Navigate, Outlet, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { PageLoading } from '../components/ui/spinner';
import { isSendMode, paths } from '../config/paths';
import { isReactionType } from '../lib/db-types';
import { isEligibleUser, useSession } from '../lib/session';
import { isLocalStorageAvailable } from '../lib/storage';
import { RouteError } from './route-error';

const landing = () => import('./routes/landing');
const LandingLayout = lazy(() => landing().then((m) => ({ default: m.LandingLayout })));
const HomePage = lazy(() => landing().then((m) => ({ default: m.HomePage })));
const ReactionPage = lazy(() =>
  import('./routes/reaction').then((m) => ({ default: m.ReactionPage })),
);
const SendPage = lazy(() => import('./routes/send').then((m) => ({ default: m.SendPage })));
const ShowcasePage = lazy(() =>
  import('./routes/showcase').then((m) => ({ default: m.ShowcasePage })),
);
const PricingPage = lazy(() =>
  import('./routes/pricing').then((m) => ({ default: m.PricingPage })),
);
const HelpPage = lazy(() => import('./routes/help').then((m) => ({ default: m.HelpPage })));
const policies = () => import('./routes/policies');
const TermsPage = lazy(() => policies().then((m) => ({ default: m.TermsPage })));
const CookiePage = lazy(() => policies().then((m) => ({ default: m.CookiePage })));

const public_ = () => import('./routes/public');
const LoginPage = lazy(() => public_().then((m) => ({ default: m.LoginPage })));
const NotSupportedPage = lazy(() => public_().then((m) => ({ default: m.NotSupportedPage })));
const UnsubscribePage = lazy(() => import('./routes/unsubscribe'));
const ConfirmEmailPage = lazy(() => import('./routes/confirm-email'));

const SignedInLayout = lazy(() => import('./routes/signed-in'));
const DashboardPage = lazy(() => import('./routes/dashboard'));
const ProfilePage = lazy(() => import('./routes/profile'));
const SenderEmailsPage = lazy(() =>
  import('./routes/profile').then((m) => ({ default: m.SenderEmailsPage })),
);
const IntegrationsPage = lazy(() =>
  import('./routes/profile').then((m) => ({ default: m.IntegrationsPage })),
);
const OAuthPage = lazy(() => import('./routes/oauth'));
const WorkPage = lazy(() => import('./routes/work'));
const PlanPage = lazy(() => import('./routes/plans'));
const PurchasePage = lazy(() =>
  import('./routes/plans').then((m) => ({ default: m.PurchasePage })),
);
const AudiencePage = lazy(() => import('./routes/audience'));

function ScrollToTop() {
  const { pathname } = useLocation();
  // Only on a change: on load the browser places the page, and a prerendered page may already
  // have been scrolled by the time it hydrates.
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    window.scrollTo?.(0, 0);
  }, [pathname]);
  return null;
}

/**
 * Landing screens and /login: a signed-in user goes to the dashboard; from /pricing to their own
 * plan page, which shows their plan and the way to change it (docs/dashboard.md, Routes).
 */
function RedirectSignedIn({
  children,
  to = paths.dashboard,
}: {
  children: ReactNode;
  to?: string;
}) {
  const { user } = useSession();
  if (isEligibleUser(user)) return <Navigate to={to} replace />;
  return <>{children}</>;
}

/** Signed-in area: only non-anonymous users with an email; others see the login screen. */
function RequireUser() {
  const { status, user } = useSession();
  if (status === 'loading') return <PageLoading />;
  if (!isEligibleUser(user)) return <LoginPage />;
  return <Outlet />;
}

/**
 * /dashboard/reaction/{type} and /dashboard/send/{mode}: a known type or source filters the list;
 * anything else is an unknown dashboard path (spec: to /dashboard/reaction, all the blocks). The
 * two routes give it their own key, so going from one to the other starts the page afresh (its
 * selection, notice and dialog), as going between two routes of their own did.
 */
function DashboardFilterRoute() {
  const { type, mode } = useParams();
  if (type === undefined ? !isSendMode(mode) : !isReactionType(type))
    return <Navigate to={paths.dashboardReaction} replace />;
  return <DashboardPage />;
}

/** Redirects every path to /not_supported when local storage does not work. */
function StorageCheck({ children }: { children: ReactNode }) {
  // Prerendering (no window) renders as if storage works; in the browser the boot script in
  // index.html does not hydrate a prerendered page when it does not.
  const [available] = useState(() => typeof window === 'undefined' || isLocalStorageAvailable());
  const { pathname } = useLocation();
  if (!available && pathname !== paths.notSupported) {
    return <Navigate to={paths.notSupported} replace />;
  }
  return <>{children}</>;
}

/** The screens under a RouteError that knows the path shown (docs/dashboard.md, Routes). */
function ShownPath({ children }: { children: ReactNode }) {
  return <RouteError pathname={useLocation().pathname}>{children}</RouteError>;
}

export function AppRoutes() {
  return (
    <StorageCheck>
      <ScrollToTop />
      <ShownPath>
        <Suspense fallback={<PageLoading />}>
          <Routes>
            <Route path={paths.notSupported} element={<NotSupportedPage />} />
            <Route path={paths.unsubscribe} element={<UnsubscribePage />} />
            <Route path={paths.confirmEmail} element={<ConfirmEmailPage />} />
            <Route
              path={paths.login}
              element={
                <RedirectSignedIn to={paths.dashboardReaction}>
                  <LoginPage />
                </RedirectSignedIn>
              }
            />
            <Route element={<RequireUser />}>
              <Route element={<SignedInLayout />}>
                <Route
                  path="dashboard"
                  element={<Navigate to={paths.dashboardReaction} replace />}
                />
                <Route path="dashboard/reaction" element={<DashboardPage />} />
                <Route
                  path="dashboard/reaction/:type"
                  element={<DashboardFilterRoute key="reaction" />}
                />
                <Route path="dashboard/send" element={<DashboardPage />} />
                <Route path="dashboard/send/:mode" element={<DashboardFilterRoute key="send" />} />
                <Route
                  path="dashboard/*"
                  element={<Navigate to={paths.dashboardReaction} replace />}
                />
                <Route path="audience" element={<AudiencePage />} />
                <Route path="profile" element={<ProfilePage />} />
                <Route path="profile/email" element={<SenderEmailsPage />} />
                <Route path="profile/plan" element={<PlanPage />} />
                <Route path="purchase/*" element={<PurchasePage />} />
                <Route path="profile/integration" element={<IntegrationsPage />} />
              </Route>
              <Route path="oauth/:service" element={<OAuthPage />} />
              <Route path="work/:blockId/:mode?" element={<WorkPage />} />
            </Route>
            <Route
              element={
                <RedirectSignedIn to={paths.profilePlan}>
                  <LandingLayout />
                </RedirectSignedIn>
              }
            >
              <Route path="pricing" element={<PricingPage />} />
            </Route>
            <Route
              element={
                <RedirectSignedIn>
                  <LandingLayout />
                </RedirectSignedIn>
              }
            >
              <Route index element={<HomePage />} />
              <Route path="reaction/*" element={<ReactionPage />} />
              <Route path="send/*" element={<SendPage />} />
              <Route path="showcase/*" element={<ShowcasePage />} />
              <Route path="help" element={<HelpPage />} />
              <Route path="terms" element={<TermsPage />} />
              <Route path="cookies" element={<CookiePage />} />
              <Route path="*" element={<HomePage />} />
            </Route>
          </Routes>
        </Suspense>
      </ShownPath>
    </StorageCheck>
  );
}
