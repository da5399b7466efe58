import { Alert, Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { ErrorAlert, formatDate, Loading, PagedTable, type Column } from '@platform/web-ui';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { useCertificateList, type Certificate, type CertificateFilters } from './certificates-api';
import { RevokeDialog } from './RevokeDialog';

/**
 * Certificates matching `filters`, newest first, pages of 100 ("Load more"); the serial opens
 * the detail; administrators revoke an active one from its row (with a reason).
 */
export function CertificateTable({ filters }: { filters: CertificateFilters }) {
  const { t, locale } = useI18n();
  const { user } = useSession();
  const isAdmin = can(user, 'admin');
  const list = useCertificateList(filters);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const columns: Column<Certificate>[] = [
    {
      key: 'serial',
      header: t('devices.serial'),
      cell: (c) => (
        <Anchor
          component={Link}
          to={`/certificates/${c.serial}`}
          aria-label={t('certificates.open', { serial: c.serial })}
          ff="monospace"
          size="sm"
        >
          {c.serial}
        </Anchor>
      ),
    },
    { key: 'purpose', header: t('certificates.purpose'), cell: (c) => t(`purpose.${c.purpose}`) },
    {
      key: 'subject',
      header: t('certificates.subject'),
      cell: (c) => c.user_identity ?? c.subject,
    },
    {
      key: 'device',
      header: t('certificates.device'),
      cell: (c) => (
        <Anchor component={Link} to={`/devices/${encodeURIComponent(c.device_serial)}`} size="sm">
          {c.device_serial}
        </Anchor>
      ),
    },
    {
      key: 'status',
      header: t('certificates.status'),
      cell: (c) => (
        <Group gap={4}>
          <Badge
            variant={c.status === 'revoked' ? 'filled' : 'light'}
            color={c.status === 'revoked' ? 'red.9' : 'dark'}
            data-testid="certificate-status"
          >
            {t(`certificates.status.${c.status}`)}
          </Badge>
          {c.superseded_at && c.status === 'active' && (
            <Badge variant="outline" color="dark">
              {t('certificates.superseded')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'notAfter',
      header: t('certificates.notAfter'),
      cell: (c) => formatDate(c.not_after, locale),
    },
  ];
  if (isAdmin) {
    columns.push({
      key: 'actions',
      header: '',
      cell: (c) =>
        c.status === 'active' ? (
          <Button
            size="xs"
            variant="outline"
            color="red.9"
            aria-label={`${t('certificates.revoke')} ${c.serial}`}
            onClick={() => setRevoking(c.serial)}
          >
            {t('certificates.revoke')}
          </Button>
        ) : null,
    });
  }
  return (
    <>
      <Text size="sm" data-testid="certificates-total">
        {t('certificates.total', { shown: rows.length, total })}
      </Text>
      <ErrorAlert error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : (
        <PagedTable
          caption={t('certificates.caption')}
          columns={columns}
          rows={rows}
          rowKey={(c) => c.serial}
          rowTestId="certificate-row"
          hasMore={list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          onMore={() => void list.fetchNextPage()}
        />
      )}
      {warning !== null && (
        <Alert color="#8a3a00" variant="light" role="status" data-testid="ca-revoke-unsupported">
          {t('certificates.caUnsupported', { warning })}
        </Alert>
      )}
      {revoking && (
        <RevokeDialog
          serial={revoking}
          onClose={() => setRevoking(null)}
          onRevoked={(answer) =>
            setWarning(answer.ca_revoke_unsupported ? (answer.warning ?? '') : null)
          }
        />
      )}
    </>
  );
}
