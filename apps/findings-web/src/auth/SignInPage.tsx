import { ErrorAlert, LanguageSwitch } from '@platform/web-ui';
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
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { api, call } from '../api/client';
import { setSession } from '../api/session';
import { useI18n } from '../i18n/i18n';
import { VersionWarning } from './VersionWarning';

export function SignInPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const location = useLocation();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const config = useQuery({
    queryKey: ['auth-config'],
    queryFn: () => call(api.GET('/api/v1/auth/config')),
  });
  const signIn = useMutation({
    mutationFn: () => call(api.POST('/api/v1/auth/local/login', { body: { login, password } })),
    onSuccess: (data) => {
      setSession(data.access_token, data.user);
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from ?? '/findings', { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate();
  };
  const providers = config.data?.providers ?? [];
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder p="lg" w={380}>
        <Stack>
          <Title order={1} size="h3">
            {t('app.title')}
          </Title>
          <VersionWarning />
          <ErrorAlert error={config.error} />
          {config.data?.local_enabled !== false && (
            <form onSubmit={submit} aria-label={t('auth.signIn')}>
              <Stack>
                <TextInput
                  label={t('auth.login')}
                  value={login}
                  onChange={(e) => setLogin(e.currentTarget.value)}
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
          {providers.length > 0 && config.data?.local_enabled !== false && (
            <Divider label={t('auth.or')} />
          )}
          {providers.map((provider) => (
            <Button key={provider.id} component="a" href={provider.login_url} variant="default">
              {t('auth.ssoWith', { name: provider.name })}
            </Button>
          ))}
          {config.data?.login_mode === 'none' && <Alert color="gray">{t('auth.noLogin')}</Alert>}
          <LanguageSwitch />
          <Anchor href="/api/docs" size="xs">
            API
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
