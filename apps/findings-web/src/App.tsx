import { AppShell, Button, Center, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { api } from './api/client';
import { setSession } from './api/session';
import { SignInPage } from './auth/SignInPage';
import { useSession } from './auth/useSession';
import { VersionWarning } from './auth/VersionWarning';
import { LanguageSwitch } from './components/LanguageSwitch';
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

function Loading() {
  const { t } = useI18n();
  return (
    <Center p="xl">
      <Loader size="sm" aria-label={t('common.loading')} />
    </Center>
  );
}

function Shell() {
  const { t } = useI18n();
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signOut = async () => {
    await api.POST('/api/v1/auth/logout').catch(() => undefined);
    setSession(undefined, undefined);
    queryClient.clear();
    void navigate('/login', { replace: true });
  };
  return (
    <AppShell header={{ height: 48 }} navbar={{ width: 190, breakpoint: 0 }} padding="sm">
      <AppShell.Header px="sm">
        <Group h="100%" justify="space-between">
          <Title order={2} size="h4">
            {t('app.title')}
          </Title>
          <Group gap="sm">
            <LanguageSwitch />
            <Text size="sm" data-testid="current-user">
              {user?.email}
            </Text>
            <Button size="xs" variant="default" onClick={() => void signOut()}>
              {t('auth.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('nav.main')}>
        {NAVIGATION.map((entry) => (
          <NavLink
            key={entry.path}
            component={Link}
            to={entry.path}
            label={t(entry.label)}
            active={location.pathname.startsWith(entry.path)}
            variant="filled"
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
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
      </AppShell.Main>
    </AppShell>
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
