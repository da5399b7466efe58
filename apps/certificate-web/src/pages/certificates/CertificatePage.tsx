import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { ErrorAlert, formatDate, Loading } from '@platform/web-ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { can } from '../../access';
import { api, call } from '../../api/client';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { download } from '../devices/devices-api';
import type { KeyProtection } from './certificates-api';
import { RevokeDialog } from './RevokeDialog';

const LEVELS: KeyProtection[] = ['none', 'prompt', 'required'];

/**
 * One certificate: its fields, the bundle download (every reading role), and for
 * administrators the key-protection step (owner confirmation) and revoke with a reason.
 */
export default function CertificatePage() {
  const { serial = '' } = useParams();
  const { t, locale } = useI18n();
  const { user } = useSession();
  const isAdmin = can(user, 'admin');
  const queryClient = useQueryClient();
  const [revoking, setRevoking] = useState(false);
  const [warning, setWarning] = useState<string | null>(null);
  const [level, setLevel] = useState<KeyProtection | null>(null);
  const cert = useQuery({
    queryKey: ['certificate', serial],
    queryFn: () => call(api.GET('/api/v1/certificates/{serial}', { params: { path: { serial } } })),
  });
  const protect = useMutation({
    mutationFn: (next: KeyProtection) =>
      call(
        api.PUT('/api/v1/certificates/{serial}/key-protection', {
          params: { path: { serial } },
          body: { level: next },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['certificate', serial] }),
  });
  const bundle = useMutation({
    mutationFn: () =>
      download(`/api/v1/certificates/${serial}/bundle`, `certificate-${serial}.zip`),
  });
  if (cert.isPending) return <Loading />;
  const c = cert.data;
  return (
    <Stack>
      <Anchor component={Link} to="/certificates" size="sm">
        {t('certificates.back')}
      </Anchor>
      <Title order={1} size="h3">
        {t('certificates.detail', { serial })}
      </Title>
      <ErrorAlert error={cert.error ?? protect.error ?? bundle.error} />
      {c && (
        <>
          <Paper withBorder p="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
              <Field label={t('certificates.status')}>
                <Badge
                  variant={c.status === 'revoked' ? 'filled' : 'light'}
                  color={c.status === 'revoked' ? 'red.9' : 'dark'}
                  data-testid="certificate-status"
                >
                  {t(`certificates.status.${c.status}`)}
                </Badge>
              </Field>
              <Field label={t('certificates.purpose')}>{t(`purpose.${c.purpose}`)}</Field>
              <Field label={t('certificates.subject')}>{c.subject}</Field>
              <Field label={t('certificates.device')}>
                <Anchor component={Link} to={`/devices/${encodeURIComponent(c.device_serial)}`}>
                  {c.device_serial}
                </Anchor>
              </Field>
              <Field label={t('certificates.user')}>{c.user_identity}</Field>
              <Field label={t('certificates.issuer')}>{c.issuer_kind}</Field>
              <Field label={t('certificates.notBefore')}>{formatDate(c.not_before, locale)}</Field>
              <Field label={t('certificates.notAfter')}>{formatDate(c.not_after, locale)}</Field>
              <Field label={t('certificates.revokedAt')}>
                {c.revoked_at
                  ? `${formatDate(c.revoked_at, locale)} (${c.revocation_reason ?? ''})`
                  : ''}
              </Field>
            </SimpleGrid>
          </Paper>
          <Group align="end" gap="xs">
            <Button variant="default" loading={bundle.isPending} onClick={() => bundle.mutate()}>
              {t('certificates.bundle')}
            </Button>
            {isAdmin && c.status === 'active' && (
              <Button color="red.9" onClick={() => setRevoking(true)}>
                {t('certificates.revoke')}
              </Button>
            )}
          </Group>
          {isAdmin ? (
            <form
              onSubmit={(event) => {
                event.preventDefault();
                protect.mutate(level ?? c.key_protection);
              }}
            >
              <Group align="end" gap="xs">
                <Select
                  label={t('certificates.keyProtection')}
                  w={340}
                  allowDeselect={false}
                  value={level ?? c.key_protection}
                  data={LEVELS.map((l) => ({ value: l, label: t(`certificates.kp.${l}`) }))}
                  onChange={(value) => setLevel((value ?? 'none') as KeyProtection)}
                />
                <Button type="submit" variant="default" loading={protect.isPending}>
                  {t('certificates.saveKeyProtection')}
                </Button>
                {protect.isSuccess && <Text size="sm">{t('device.saved')}</Text>}
              </Group>
            </form>
          ) : (
            <Field label={t('certificates.keyProtection')}>
              {t(`certificates.kp.${c.key_protection}`)}
            </Field>
          )}
          {warning !== null && (
            <Alert
              color="#8a3a00"
              variant="light"
              role="status"
              data-testid="ca-revoke-unsupported"
            >
              {t('certificates.caUnsupported', { warning })}
            </Alert>
          )}
          {revoking && (
            <RevokeDialog
              serial={c.serial}
              onClose={() => setRevoking(false)}
              onRevoked={(answer) =>
                setWarning(answer.ca_revoke_unsupported ? (answer.warning ?? '') : null)
              }
            />
          )}
        </>
      )}
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="gray.7">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children || '—'}
      </Text>
    </div>
  );
}
