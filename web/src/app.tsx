import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { AnnouncementPrompt } from '@web/announcements/announcement-prompt';
import { ApiFailure, routeAfterSignOut } from '@web/api/client';
import { SessionProvider, useSession } from '@web/auth/session';
import { loginPathFor } from '@web/config';
import { mayOpen } from '@web/routes/access';
import { moduleRoutes } from '@web/routes/modules';
import { specPathTarget } from '@web/routes/spec-paths';
import type { ModuleRoute } from '@web/routes/types';
import { Layout } from '@web/shell/layout';
import { lazyScreen } from '@web/shell/lazy-screen';
import { NewVersionBanner } from '@web/shell/new-version';
import { NotificationProvider } from '@web/shell/notifications';
import { Page } from '@web/shell/page';
import { ScreenBoundary } from '@web/shell/screen-boundary';
import { Spinner } from '@web/shell/spinner';
import { type ReactNode, Suspense, useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { HashRouter, Navigate, Outlet, Route, Routes, useLocation } from 'react-router-dom';

/** The console: providers, the hash router, the public account screens and the signed-in layout. */

const Login = lazyScreen(() => import('@web/routes/auth/login'));
const Register = lazyScreen(() => import('@web/routes/auth/register'));
const VerifyEmail = lazyScreen(() => import('@web/routes/auth/verify-email'));
const ForgotPassword = lazyScreen(() => import('@web/routes/auth/forgot-password'));
const ResetPassword = lazyScreen(() => import('@web/routes/auth/reset-password'));
const ResetPosPin = lazyScreen(() => import('@web/routes/auth/reset-pos-pin'));
const Dashboard = lazyScreen(() => import('@web/routes/dashboard'));
const NotFound = lazyScreen(() => import('@web/routes/not-found'));
const Forbidden = lazyScreen(() => import('@web/routes/forbidden'));

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal will not change by asking again; a network hiccup might.
      retry: (count, error) =>
        !(error instanceof ApiFailure && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

/** Spec §2: every navigation starts at the top of the page. */
function ScrollToTop() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new path is the reason to scroll
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

function Frame() {
  const { t } = useTranslation('common');
  return (
    <>
      <ScrollToTop />
      <NewVersionBanner />
      <ScreenBoundary>
        <Suspense fallback={<Spinner label={t('loading')} fullPage />}>
          <Outlet />
        </Suspense>
      </ScreenBoundary>
    </>
  );
}

/** Spec §2: a route that needs a session, opened without a token, goes to the login with the path to come back to. */
function RequireToken({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const location = useLocation();
  if (!token) {
    const back = `${location.pathname}${location.search}`;
    const target = routeAfterSignOut() ?? `${loginPathFor(back)}?redirect=${encodeURIComponent(back)}`;
    return <Navigate to={target} replace />;
  }
  return (
    <>
      {children}
      <AnnouncementPrompt />
    </>
  );
}

function Guarded({ route }: { route: ModuleRoute }) {
  const session = useSession();
  if (!mayOpen(route, session)) {
    return (
      <Page titleKey="common:forbidden.page_title">
        <Forbidden />
      </Page>
    );
  }
  const Screen = route.element;
  return (
    <Page titleKey={route.titleKey}>
      <Screen />
    </Page>
  );
}

function page(titleKey: string, Screen: React.ComponentType) {
  return (
    <Page titleKey={titleKey}>
      <Screen />
    </Page>
  );
}

/** A path the spec names for a screen served under another path leads there; any other unknown path is a 404. */
function SpecPathOrNotFound() {
  const { pathname, search } = useLocation();
  const target = specPathTarget(pathname);
  if (target) return <Navigate to={`${target}${search}`} replace />;
  return page('common:not_found.page_title', NotFound);
}

function ConsoleRoutes() {
  return (
    <Routes>
      <Route element={<Frame />}>
        <Route path="login" element={page('auth:login.page_title', Login)} />
        <Route path="login/:extra" element={page('auth:login.page_title', Login)} />
        <Route path="admin-login" element={page('auth:login.admin_page_title', Login)} />
        <Route path="register" element={page('auth:register.page_title', Register)} />
        <Route path="register/verify" element={page('auth:otp.page_title', VerifyEmail)} />
        <Route path="forgot-password" element={page('auth:forgot.page_title', ForgotPassword)} />
        <Route path="reset-password" element={page('auth:reset.page_title', ResetPassword)} />
        <Route path="reset-pos-app-pin" element={page('auth:pin.page_title', ResetPosPin)} />
        <Route
          element={
            <RequireToken>
              <Layout />
            </RequireToken>
          }
        >
          <Route index element={page('common:dashboard.page_title', Dashboard)} />
          {moduleRoutes.map((route) => (
            <Route key={route.path} path={route.path} element={<Guarded route={route} />} />
          ))}
          <Route path="*" element={<SpecPathOrNotFound />} />
        </Route>
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationProvider>
        <SessionProvider>
          <HashRouter>
            <ConsoleRoutes />
          </HashRouter>
        </SessionProvider>
      </NotificationProvider>
    </QueryClientProvider>
  );
}
