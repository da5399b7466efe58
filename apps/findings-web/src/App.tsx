import { AppLayout, Loading } from '@platform/web-ui';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { api } from './api/client';
import { setSession } from './api/session';
import { SignInPage } from './auth/SignInPage';
import { useSession } from './auth/useSession';
import { VersionWarning } from './auth/VersionWarning';
import { useI18n } from './i18n/i18n';
import { NAVIGATION } from './navigation';
import { FindingsPage } from './pages/findings/FindingsPage';

// Everything but the findings list loads on first visit (keeps the initial bundle small).
const FindingPage = lazy(() => import('./pages/findings/FindingPage'));
const ProjectsPage = lazy(() => import('./pages/projects/ProjectsPage'));
const ProjectPage = lazy(() => import('./pages/projects/ProjectPage'));
const JobsPage = lazy(() => import('./pages/jobs/JobsPage'));
const DeadlinesPage = lazy(() => import('./pages/deadlines/DeadlinesPage'));
const DashboardsPage = lazy(() => import('./pages/deadlines/DashboardsPage'));
const PluginsPage = lazy(() => import('./pages/plugins/PluginsPage'));
const ScopePage = lazy(() => import('./pages/scope/ScopePage'));
const CallbackKeysPage = lazy(() => import('./pages/callback-keys/CallbackKeysPage'));
const RollupPage = lazy(() => import('./pages/rollup/RollupPage'));
const SuppressionPage = lazy(() => import('./pages/suppression/SuppressionPage'));

function Shell() {
  const { t } = useI18n();
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    setSession(undefined, undefined);
    queryClient.clear();
    void navigate('/login', { replace: true });
  };
  return (
    <AppLayout
      title={t('app.title')}
      nav={NAVIGATION.map((entry) => ({ path: entry.path, label: t(entry.label) }))}
      userLabel={user?.email}
      onSignOut={() => void signOut()}
    >
      <VersionWarning />
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/findings" element={<FindingsPage />} />
          <Route path="/findings/:id" element={<FindingPage />} />
          <Route path="/projects" element={<ProjectsPage />} />
          <Route path="/projects/:id" element={<ProjectPage />} />
          <Route path="/projects/:id/scope" element={<ScopePage />} />
          <Route path="/scope" element={<ScopePage />} />
          <Route path="/projects/:id/suppression" element={<SuppressionPage />} />
          <Route path="/suppression" element={<SuppressionPage />} />
          <Route path="/jobs" element={<JobsPage />} />
          <Route path="/deadlines" element={<DeadlinesPage />} />
          <Route path="/dashboards" element={<DashboardsPage />} />
          <Route path="/plugins" element={<PluginsPage />} />
          <Route path="/callback-keys" element={<CallbackKeysPage />} />
          <Route path="/rollup" element={<RollupPage />} />
          <Route path="*" element={<Navigate to="/findings" replace />} />
        </Routes>
      </Suspense>
    </AppLayout>
  );
}

export function App() {
  const { signedIn, restoring } = useSession();
  const location = useLocation();
  if (restoring) return <Loading />;
  if (location.pathname === '/login') {
    return signedIn ? <Navigate to="/findings" replace /> : <SignInPage />;
  }
  if (!signedIn) {
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return <Shell />;
}
