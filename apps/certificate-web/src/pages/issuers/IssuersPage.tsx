import { Alert, Badge, Button, Group, List, Stack, Title } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { IssuerDialog } from './IssuerDialog';
import {
  setting,
  storedSecrets,
  testConnection,
  useIssuers,
  type ConnectionTest,
  type IssuerProfile,
} from './issuers-api';

function TestResult({ result }: { result: ConnectionTest }) {
  const { t } = useI18n();
  const purpose = lookUp(t, 'purpose', result.purpose);
  return (
    <Alert
      color={result.ok ? '#1b5e20' : '#b71c1c'}
      variant="filled"
      role={result.ok ? 'status' : 'alert'}
      data-testid="connection-test"
      title={
        result.ok
          ? t('issuers.testOk', { purpose })
          : t('issuers.testFailed', {
              purpose,
              step: lookUp(t, 'issuers.step', result.failed_step ?? 'config'),
            })
      }
    >
      <List size="sm" c="white">
        {result.steps.map((s) => (
          <List.Item key={s.step} data-testid="connection-step">
            {s.ok ? '✓' : '✗'} {lookUp(t, 'issuers.step', s.step)}
            {s.detail ? `: ${s.detail}` : ''}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

/**
 * Issuer profiles per X.509 purpose (cert-admin only, reading included): the effective
 * profile, edit (the whole profile), and test-connection of the stored profile with each step.
 */
export default function IssuersPage() {
  const { t, locale } = useI18n();
  const issuers = useIssuers();
  const [editing, setEditing] = useState<IssuerProfile | null>(null);
  const test = useMutation({ mutationFn: testConnection });
  const columns: Column<IssuerProfile>[] = [
    { key: 'purpose', header: t('issuers.purpose'), cell: (p) => lookUp(t, 'purpose', p.purpose) },
    {
      key: 'kind',
      header: t('issuers.kind'),
      cell: (p) =>
        `${lookUp(t, 'issuers.kindName', p.kind)}${p.source === 'default' ? ` (${t('issuers.default')})` : ''}`,
    },
    { key: 'url', header: t('issuers.url'), cell: (p) => setting(p, 'url') || '—' },
    {
      key: 'state',
      header: t('infra.state'),
      cell: (p) => (
        <Badge variant="filled" color={p.configured ? '#1b5e20' : '#b71c1c'}>
          {p.configured ? t('issuers.configured') : (p.problem ?? t('issuers.notConfigured'))}
        </Badge>
      ),
    },
    {
      key: 'secrets',
      header: t('issuers.secrets'),
      cell: (p) => storedSecrets(p).join(', ') || '—',
    },
    {
      key: 'updated',
      header: t('infra.updated'),
      cell: (p) =>
        p.updated_at ? `${formatDate(p.updated_at, locale)} · ${p.updated_by ?? ''}` : '—',
    },
    {
      key: 'actions',
      header: t('infra.actions'),
      cell: (p) => {
        const purpose = lookUp(t, 'purpose', p.purpose);
        return (
          <Group gap={4} wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              aria-label={t('issuers.editPurpose', { purpose })}
              onClick={() => setEditing(p)}
            >
              {t('infra.edit')}
            </Button>
            <Button
              size="xs"
              variant="default"
              aria-label={t('issuers.testPurpose', { purpose })}
              loading={test.isPending && test.variables === p.purpose}
              onClick={() => test.mutate(p.purpose)}
            >
              {t('issuers.test')}
            </Button>
          </Group>
        );
      },
    },
  ];
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('issuers.title')}
      </Title>
      {test.data && <TestResult result={test.data} />}
      <ErrorAlert error={issuers.error ?? test.error} />
      {issuers.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('issuers.caption')}
          columns={columns}
          rows={issuers.data?.items ?? []}
          rowKey={(p) => p.purpose}
          rowTestId="issuer-row"
        />
      )}
      {editing && <IssuerDialog profile={editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
