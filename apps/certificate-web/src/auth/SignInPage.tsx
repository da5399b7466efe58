import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Paper,
  PasswordInput,
  Stack,
  TextInput,
  Title,
} from '@mantine/core';
import { ErrorAlert, LanguageSwitch } from '@platform/web-ui';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { api, call } from '../api/client';
import { setSession } from '../api/session';
import { useI18n } from '../i18n/i18n';
import { startSignIn } from './oidc';
import { VersionWarning } from './VersionWarning';

/** Local sign-in when the service allows it, and single sign-on when it is configured. */
export function SignInPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const config = useQuery({
    queryKey: ['auth-config'],
    queryFn: () => call(api.GET('/api/v1/auth/config')),
  });
  const signIn = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/local/login', { body: { email, password } })),
    onSuccess: (data) => {
      setSession(data.access_token, data.user);
      void navigate(from ?? '/dashboard', { replace: true });
    },
  });
  const sso = useMutation({
    mutationFn: async () => {
      const oidc = config.data?.oidc;
      if (!oidc) return;
      window.location.assign(await startSignIn(oidc, window.location.origin, from));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  const local = config.data?.local_enabled === true;
  const oidc = config.data?.oidc.enabled === true;
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder p="lg" w={380}>
        <Stack>
          <Title order={1} size="h3">
            {t('app.title')}
          </Title>
          <VersionWarning />
          <ErrorAlert error={config.error} />
          {local && (
            <form onSubmit={submit} aria-label={t('auth.signIn')}>
              <Stack>
                <TextInput
                  label={t('auth.login')}
                  type="email"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  autoComplete="username"
                  required
                />
                <PasswordInput
                  label={t('auth.password')}
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  autoComplete="current-password"
                  required
                />
                <ErrorAlert error={signIn.error} />
                <Button type="submit" loading={signIn.isPending}>
                  {t('auth.signIn')}
                </Button>
              </Stack>
            </form>
          )}
          {local && oidc && <Divider label={t('auth.or')} />}
          {oidc && (
            <Button variant="default" loading={sso.isPending} onClick={() => sso.mutate()}>
              {t('auth.sso')}
            </Button>
          )}
          <ErrorAlert error={sso.error} />
          {config.data && !local && !oidc && <Alert color="gray">{t('auth.noLogin')}</Alert>}
          <LanguageSwitch />
          <Anchor href="/api/docs" size="xs">
            API
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
