import { Alert, Button, Checkbox, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import {
  createCluster,
  formatMappings,
  parseMappings,
  updateCluster,
  type Cluster,
} from './k8s-api';

/** Create a cluster (`cluster` absent) or change one: name, API server, its CA, groups. */
export function ClusterDialog({ cluster, onClose }: { cluster?: Cluster; onClose(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [name, setName] = useState(cluster?.name ?? '');
  const [serverUrl, setServerUrl] = useState(cluster?.server_url ?? '');
  const [caBundle, setCaBundle] = useState(cluster?.ca_bundle ?? '');
  const [groups, setGroups] = useState(formatMappings(cluster?.groups ?? []));
  const [enabled, setEnabled] = useState(cluster?.enabled ?? true);
  const [badLine, setBadLine] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Parameters<typeof createCluster>[0]) =>
      cluster ? updateCluster(cluster.id, body) : createCluster(body),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['k8s', 'clusters'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const mappings = parseMappings(groups);
    if (!Array.isArray(mappings)) {
      setBadLine(mappings.badLine);
      return;
    }
    setBadLine(null);
    save.mutate({
      name: name.trim(),
      server_url: serverUrl.trim(),
      ca_bundle: caBundle,
      groups: mappings,
      enabled,
    });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={cluster ? t('k8s.editTitle', { name: cluster.name }) : t('k8s.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={t('k8s.name')}
            description={t('k8s.nameHint')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            required
            data-autofocus
          />
          <TextInput
            label={t('k8s.serverUrl')}
            value={serverUrl}
            onChange={(e) => setServerUrl(e.currentTarget.value)}
            placeholder="https://k8s.example.com:6443"
            required
          />
          <Textarea
            label={t('k8s.caBundle')}
            description={t('k8s.caBundleHint')}
            value={caBundle}
            onChange={(e) => setCaBundle(e.currentTarget.value)}
            autosize
            minRows={3}
            maxRows={8}
            required
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Textarea
            label={t('k8s.groups')}
            description={t('k8s.groupsHint')}
            value={groups}
            onChange={(e) => setGroups(e.currentTarget.value)}
            autosize
            minRows={2}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Checkbox
            label={t('infra.enabled')}
            checked={enabled}
            onChange={(e) => setEnabled(e.currentTarget.checked)}
          />
          {badLine !== null && (
            <Alert color="red.9" variant="filled" role="alert">
              {t('k8s.badGroupLine', { line: badLine })}
            </Alert>
          )}
          <ErrorAlert error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('infra.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
