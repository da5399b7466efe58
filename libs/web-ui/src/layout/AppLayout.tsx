import { AppShell, Button, Center, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { WebUiMessageKey } from '../core/messages';
import { useI18nOf } from '../i18n';
import { LanguageSwitch } from '../components/LanguageSwitch';

/** One entry of the main navigation, already translated. */
export interface NavItem {
  path: string;
  label: string;
}

/**
 * The signed-in page frame both UIs share: the app's title, the language switch, the signed-in
 * person (`data-testid="current-user"`) and a sign-out button in the header; the main navigation
 * on the left (the entry whose path starts the current one is active); the page below.
 */
export function AppLayout({
  title,
  nav,
  userLabel,
  userDetail,
  onSignOut,
  children,
}: {
  title: string;
  nav: NavItem[];
  userLabel: string | undefined;
  /** Shown after the user (e.g. the certificate UI's role). */
  userDetail?: ReactNode;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const { t } = useI18nOf<WebUiMessageKey>();
  const location = useLocation();
  return (
    <AppShell header={{ height: 48 }} navbar={{ width: 190, breakpoint: 0 }} padding="sm">
      <AppShell.Header px="sm">
        <Group h="100%" justify="space-between">
          <Title order={2} size="h4">
            {title}
          </Title>
          <Group gap="sm">
            <LanguageSwitch />
            <Text size="sm" data-testid="current-user">
              {userLabel}
            </Text>
            {userDetail}
            <Button size="xs" variant="default" onClick={onSignOut}>
              {t('auth.signOut')}
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label={t('nav.main')}>
        {nav.map((entry) => (
          <NavLink
            key={entry.path}
            component={Link}
            to={entry.path}
            label={entry.label}
            active={location.pathname.startsWith(entry.path)}
            variant="filled"
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}

/** A page (or the app) still loading. */
export function Loading() {
  const { t } = useI18nOf<WebUiMessageKey>();
  return (
    <Center p="xl">
      <Loader size="sm" aria-label={t('common.loading')} />
    </Center>
  );
}
