import { Alert, Badge } from '@mantine/core';
import { AppLayout, Loading } from '@platform/web-ui';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { can } from './access';
import { api } from './api/client';
import { setSession } from './api/session';
import { CALLBACK_PATH } from './auth/oidc';
import { OidcCallback } from './auth/OidcCallback';
import { SignInPage } from './auth/SignInPage';
import { useSession } from './auth/useSession';
import { VersionWarning } from './auth/VersionWarning';
import { useI18n } from './i18n/i18n';
import { NAVIGATION } from './navigation';
import { TamperBanner } from './pages/license/TamperBanner';

// Every screen loads on first visit (keeps the initial bundle small). The screen the address asks
// for starts loading with the bundle, beside the session's restore, not after it: on the
// 50 000-pending requests queue that was ~150 ms of the first rows (docs/benchmarks.md).
const SCREENS = [
  { path: '/dashboard', load: () => import('./pages/dashboard/DashboardPage') },
  { path: '/requests', load: () => import('./pages/requests/RequestsPage') },
  { path: '/versions', load: () => import('./pages/versions/VersionsPage') },
  { path: '/ssh', load: () => import('./pages/ssh/SshPage') },
  { path: '/kubernetes', load: () => import('./pages/kubernetes/KubernetesPage') },
  { path: '/networks', load: () => import('./pages/networks/NetworksPage') },
  { path: '/webhooks', load: () => import('./pages/webhooks/WebhooksPage') },
  { path: '/issuers', load: () => import('./pages/issuers/IssuersPage') },
  { path: '/license', load: () => import('./pages/license/LicensePage') },
  { path: '/access', load: () => import('./pages/access/AccessPage') },
  { path: '/audit', load: () => import('./pages/audit/AuditPage') },
  { path: '/settings', load: () => import('./pages/settings/SettingsPage') },
  { path: '/devices', load: () => import('./pages/devices/DevicesPage') },
  { path: '/devices/:serial', load: () => import('./pages/devices/DevicePage') },
  { path: '/certificates', load: () => import('./pages/certificates/CertificatesPage') },
  { path: '/certificates/:serial', load: () => import('./pages/certificates/CertificatePage') },
].map((screen) => ({ ...screen, Page: lazy(screen.load) }));

/** Starts loading the code of the screen at `pathname` (none for the sign-in and unknown paths). */
export function preloadScreen(pathname: string): void {
  const screen = SCREENS.find(({ path }) => matchPath(path, pathname));
  // A failed preload is no error: the route's own lazy load retries and shows its failure.
  screen?.load().catch(() => undefined);
}

if (typeof window !== 'undefined') preloadScreen(window.location.pathname);

function Shell() {
  const { t } = useI18n();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api.POST('/api/v1/auth/logout', { body: {} }).catch(() => undefined);
    setSession(undefined, undefined);
    queryClient.clear();
    void navigate('/login', { replace: true });
  };
  const nav = NAVIGATION.filter((entry) => can(user, entry.needs)).map((entry) => ({
    path: entry.path,
    label: t(entry.label),
  }));
  return (
    <AppLayout
      title={t('app.title')}
      nav={nav}
      userLabel={user?.email}
      userDetail={
        user?.role ? (
          <Badge variant="light" color="indigo.9" data-testid="current-role">
            {t(`role.${user.role}`)}
          </Badge>
        ) : null
      }
      onSignOut={() => void signOut()}
    >
      <VersionWarning />
      <TamperBanner />
      {!can(user, 'read') ? (
        <Alert color="gray" role="status" data-testid="no-role">
          {t('auth.noRole')}
        </Alert>
      ) : (
        <Suspense fallback={<Loading />}>
          <Routes>
            {SCREENS.map(({ path, Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="*" element={<Navigate to="/dashboard" replace />} />
          </Routes>
        </Suspense>
      )}
    </AppLayout>
  );
}

export function App() {
  const { signedIn, restoring } = useSession();
  const location = useLocation();
  if (location.pathname === CALLBACK_PATH) return <OidcCallback />;
  if (restoring) return <Loading />;
  if (location.pathname === '/login') {
    // Signed in (here, or in another tab): on to the page asked for first.
    const from = (location.state as { from?: string } | null)?.from;
    return signedIn ? <Navigate to={from ?? '/dashboard'} replace /> : <SignInPage />;
  }
  if (!signedIn) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return <Shell />;
}
