import { Alert, Badge, Stack, Table, Title } from '@mantine/core';
import { ErrorAlert, formatDate, majorMinor } from '@platform/web-ui';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import { UI_MAJOR_MINOR } from '../../auth/VersionWarning';
import { useI18n } from '../../i18n/i18n';

/** The UI's own build (vite.config.ts) and its server's image tag (server/serve.mjs). */
const UI_VERSION = __APP_VERSION__;

async function loadUiImage(): Promise<{ image_tag: string | null }> {
  const res = await fetch('/ui-version.json', { credentials: 'same-origin' });
  return res.ok ? ((await res.json()) as { image_tag: string | null }) : { image_tag: null };
}

/**
 * Server and UI versions side by side, with the mismatch marked: a different X.Y, or different
 * image tags when both run from release images (server and UI images must carry the same tag).
 */
export default function VersionsPage() {
  const { t, locale } = useI18n();
  const server = useQuery({
    queryKey: ['version', 'details'],
    queryFn: () => call(api.GET('/api/v1/version')),
  });
  const ui = useQuery({ queryKey: ['ui-version'], queryFn: loadUiImage });
  const problems: string[] = [];
  if (server.data && majorMinor(server.data.version) !== UI_MAJOR_MINOR) {
    problems.push(
      t('versions.mismatchVersion', {
        server: majorMinor(server.data.version),
        ui: UI_MAJOR_MINOR,
      }),
    );
  }
  const serverTag = server.data?.image_tag ?? null;
  const uiTag = ui.data?.image_tag ?? null;
  if (server.data && ui.data && (serverTag ?? '') !== (uiTag ?? '')) {
    problems.push(
      t('versions.mismatchTag', {
        server: serverTag ?? t('versions.sourceBuild'),
        ui: uiTag ?? t('versions.sourceBuild'),
      }),
    );
  }
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('versions.title')}
      </Title>
      <ErrorAlert error={server.error} />
      {server.data && ui.data && (
        <Alert
          color={problems.length ? '#8a3a00' : '#1b5e20'}
          variant="filled"
          role={problems.length ? 'alert' : 'status'}
          data-testid={problems.length ? 'versions-mismatch' : 'versions-match'}
        >
          {problems.length
            ? t('versions.mismatch', { what: problems.join('; ') })
            : t('versions.match')}
        </Alert>
      )}
      <Table withTableBorder maw={900}>
        <Table.Caption>{t('versions.title')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('versions.component')}</Table.Th>
            <Table.Th>{t('versions.version')}</Table.Th>
            <Table.Th>{t('versions.commit')}</Table.Th>
            <Table.Th>{t('versions.builtAt')}</Table.Th>
            <Table.Th>{t('versions.imageTag')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr data-testid="version-server">
            <Table.Td>{t('versions.server')}</Table.Td>
            <Table.Td>{server.data?.version ?? '—'}</Table.Td>
            <Table.Td>{server.data?.commit ?? '—'}</Table.Td>
            <Table.Td>{formatDate(server.data?.built_at, locale)}</Table.Td>
            <Table.Td>{serverTag ?? t('versions.sourceBuild')}</Table.Td>
          </Table.Tr>
          <Table.Tr data-testid="version-ui">
            <Table.Td>{t('versions.ui')}</Table.Td>
            <Table.Td>
              {UI_VERSION}{' '}
              {server.data && majorMinor(server.data.version) !== UI_MAJOR_MINOR && (
                <Badge color="#8a3a00" variant="filled" data-testid="version-mismatch-mark">
                  ≠ {majorMinor(server.data.version)}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>—</Table.Td>
            <Table.Td>—</Table.Td>
            <Table.Td>{uiTag ?? t('versions.sourceBuild')}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
