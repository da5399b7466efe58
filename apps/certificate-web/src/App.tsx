import { Alert, Badge } from '@mantine/core';
import { AppLayout, Loading } from '@platform/web-ui';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
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

// Every screen loads on first visit (keeps the initial bundle small).
const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage'));
const RequestsPage = lazy(() => import('./pages/requests/RequestsPage'));
const VersionsPage = lazy(() => import('./pages/versions/VersionsPage'));
const SshPage = lazy(() => import('./pages/ssh/SshPage'));
const KubernetesPage = lazy(() => import('./pages/kubernetes/KubernetesPage'));
const NetworksPage = lazy(() => import('./pages/networks/NetworksPage'));
const WebhooksPage = lazy(() => import('./pages/webhooks/WebhooksPage'));
const IssuersPage = lazy(() => import('./pages/issuers/IssuersPage'));
const LicensePage = lazy(() => import('./pages/license/LicensePage'));
const AccessPage = lazy(() => import('./pages/access/AccessPage'));
const AuditPage = lazy(() => import('./pages/audit/AuditPage'));
const SettingsPage = lazy(() => import('./pages/settings/SettingsPage'));
const DevicesPage = lazy(() => import('./pages/devices/DevicesPage'));
const DevicePage = lazy(() => import('./pages/devices/DevicePage'));
const CertificatesPage = lazy(() => import('./pages/certificates/CertificatesPage'));
const CertificatePage = lazy(() => import('./pages/certificates/CertificatePage'));

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
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/requests" element={<RequestsPage />} />
            <Route path="/versions" element={<VersionsPage />} />
            <Route path="/ssh" element={<SshPage />} />
            <Route path="/kubernetes" element={<KubernetesPage />} />
            <Route path="/networks" element={<NetworksPage />} />
            <Route path="/webhooks" element={<WebhooksPage />} />
            <Route path="/issuers" element={<IssuersPage />} />
            <Route path="/license" element={<LicensePage />} />
            <Route path="/access" element={<AccessPage />} />
            <Route path="/audit" element={<AuditPage />} />
            <Route path="/settings" element={<SettingsPage />} />
            <Route path="/devices" element={<DevicesPage />} />
            <Route path="/devices/:serial" element={<DevicePage />} />
            <Route path="/certificates" element={<CertificatesPage />} />
            <Route path="/certificates/:serial" element={<CertificatePage />} />
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
