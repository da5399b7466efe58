import { Anchor, Center, Loader, Paper, Stack, Title } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { api, call } from '../api/client';
import { restoreSession, setSession } from '../api/session';
import { useI18n } from '../i18n/i18n';
import { takePendingSignIn } from './oidc';

/**
 * The provider's redirect back (`/auth/callback?code=…&state=…`): checks `state` against the
 * sign-in this tab started, then posts the code, the PKCE verifier, the redirect URI and the
 * nonce to POST /api/v1/auth/callback and signs in with its answer.
 */
export function OidcCallback() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const params = new URLSearchParams(window.location.search);
    const pending = takePendingSignIn();
    void (async () => {
      // The page load's own restore ends first (it must not clear the session made here).
      await restoreSession();
      const refused = params.get('error');
      if (refused) throw new Error(t('auth.providerRefused', { reason: refused }));
      const code = params.get('code');
      if (!pending || !code || params.get('state') !== pending.state) {
        throw new Error(t('auth.stateMismatch'));
      }
      const answer = await call(
        api.POST('/api/v1/auth/callback', {
          body: {
            code,
            code_verifier: pending.verifier,
            redirect_uri: pending.redirectUri,
            nonce: pending.nonce,
          },
        }),
      );
      setSession(answer.access_token, answer.user);
      void navigate(pending.from ?? '/dashboard', { replace: true });
    })().catch(setError);
  }, [navigate, t]);
  return (
    <Center mih="100vh" component="main">
      <Paper withBorder p="lg" w={420}>
        <Stack>
          <Title order={1} size="h3">
            {t('auth.callbackTitle')}
          </Title>
          {error ? (
            <>
              <ErrorAlert error={error} />
              <Anchor component={Link} to="/login">
                {t('auth.backToSignIn')}
              </Anchor>
            </>
          ) : (
            <Loader size="sm" aria-label={t('common.loading')} />
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
