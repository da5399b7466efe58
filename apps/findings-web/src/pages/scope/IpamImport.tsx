import { ErrorAlert } from '@platform/web-ui';
import {
  Button,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type Schemas } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { refreshPerimeter } from './ScopeEntries';

type ImportBody = Schemas['IpamImportDto'];
type Objects = NonNullable<ImportBody['objects']>[number];

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/**
 * The import of the perimeter from NetBox (prefixes and/or IP addresses, with filters). The
 * token is a write-only password field: sent with this import only, cleared afterwards, never
 * shown again (the API neither stores nor returns it). The answer's counts, or its localized
 * error, are shown below the form.
 */
export function IpamImport({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [baseUrl, setBaseUrl] = useState('');
  const [token, setToken] = useState('');
  const [objects, setObjects] = useState<Objects[]>(['prefixes', 'ip-addresses']);
  const [tags, setTags] = useState('');
  const [statuses, setStatuses] = useState('');
  const [vrf, setVrf] = useState('');
  const [mode, setMode] = useState<NonNullable<ImportBody['mode']>>('include');
  const run = useMutation({
    mutationFn: () => {
      const body: ImportBody = { base_url: baseUrl.trim(), token, objects, mode };
      if (list(tags).length > 0) body.tag = list(tags);
      if (list(statuses).length > 0) body.status = list(statuses);
      if (vrf.trim() !== '') body.vrf_id = vrf.trim();
      return call(
        api.POST('/api/v1/projects/{id}/scope/import/{ipam_system}', {
          params: { path: { id: projectId, ipam_system: 'netbox' } },
          body,
        }),
      );
    },
    onSettled: () => setToken(''),
    onSuccess: () => refreshPerimeter(queryClient, projectId),
  });
  const toggle = (kind: Objects, on: boolean) =>
    setObjects(on ? [...new Set([...objects, kind])] : objects.filter((o) => o !== kind));
  const result = run.data;
  return (
    <Paper withBorder p="xs">
      <form
        aria-label={t('scope.import')}
        onSubmit={(e) => {
          e.preventDefault();
          run.mutate();
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h5">
            {t('scope.import')}
          </Title>
          <Group align="end" gap="xs">
            <TextInput
              size="xs"
              w={320}
              label={t('scope.netboxUrl')}
              placeholder="https://netbox.example.com"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.currentTarget.value)}
              required
            />
            <PasswordInput
              size="xs"
              w={320}
              label={t('scope.netboxToken')}
              description={t('scope.netboxTokenHint')}
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              required
            />
          </Group>
          <Group gap="md">
            <Checkbox
              size="xs"
              label={t('scope.objects.prefixes')}
              checked={objects.includes('prefixes')}
              onChange={(e) => toggle('prefixes', e.currentTarget.checked)}
            />
            <Checkbox
              size="xs"
              label={t('scope.objects.ipAddresses')}
              checked={objects.includes('ip-addresses')}
              onChange={(e) => toggle('ip-addresses', e.currentTarget.checked)}
            />
          </Group>
          <Group align="end" gap="xs">
            <TextInput
              size="xs"
              w={220}
              label={t('scope.tags')}
              value={tags}
              onChange={(e) => setTags(e.currentTarget.value)}
            />
            <TextInput
              size="xs"
              w={220}
              label={t('scope.statuses')}
              value={statuses}
              onChange={(e) => setStatuses(e.currentTarget.value)}
            />
            <TextInput
              size="xs"
              w={220}
              label={t('scope.vrf')}
              value={vrf}
              onChange={(e) => setVrf(e.currentTarget.value)}
            />
            <SegmentedControl
              size="xs"
              aria-label={t('scope.importAs')}
              value={mode}
              onChange={(v) => setMode(v as typeof mode)}
              data={[
                { value: 'include', label: t('scope.mode.include') },
                { value: 'exclude', label: t('scope.mode.exclude') },
              ]}
            />
            <Button size="xs" type="submit" loading={run.isPending} disabled={objects.length === 0}>
              {t('scope.runImport')}
            </Button>
          </Group>
          <ErrorAlert error={run.error} />
          {result && (
            <Stack gap={4} data-testid="import-result">
              <Text size="sm" c="#1e6b30">
                {t('scope.importResult', {
                  added: result.added,
                  present: result.already_present,
                  overlap: result.skipped_overlap,
                  invalid: result.skipped_invalid,
                  prefixes: result.prefixes_read,
                  addresses: result.addresses_read,
                })}
              </Text>
              {result.skipped.length > 0 && (
                <Table withTableBorder fz="xs" data-testid="import-skipped">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('scope.skipped')}</Table.Th>
                      <Table.Th>{t('scope.reason')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {result.skipped.map((s) => (
                      <Table.Tr key={s.value}>
                        <Table.Td>{s.value}</Table.Td>
                        <Table.Td>{s.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
