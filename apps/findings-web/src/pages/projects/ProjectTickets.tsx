import { ErrorAlert, formatDate, OneTimeSecret } from '@platform/web-ui';
import {
  Button,
  Checkbox,
  Group,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../../api/client';
import { useI18n } from '../../i18n/i18n';

type Config = Schemas['TicketConfigDto'];
type Provider = Schemas['TicketProviderDto'];
type ClosedAction = Config['tracker_closed_action'];
type Rotated = Schemas['RotatedWebhookSecretDto'];

function ConfigForm({
  projectId,
  config,
  providers,
}: {
  projectId: string;
  config: Config;
  providers: Provider[];
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [pluginId, setPluginId] = useState<string | null>(config.plugin_id);
  const [target, setTarget] = useState(config.default_target ?? '');
  const [closed, setClosed] = useState<ClosedAction>(config.tracker_closed_action);
  const [sync, setSync] = useState(config.sync_status_to_tracker);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/api/v1/projects/{id}/ticket-provider/config', {
          params: { path: { id: projectId } },
          body: {
            plugin_id: pluginId ?? '',
            // The stored non-secret values go back as they are; stored secrets are kept.
            settings: pluginId === config.plugin_id ? config.settings : {},
            default_target: target.trim() === '' ? null : target.trim(),
            tracker_closed_action: closed,
            sync_status_to_tracker: sync,
          },
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(['ticket-config', projectId], saved),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form aria-label={t('tickets.configForm')} onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Select
          label={t('tickets.provider')}
          placeholder={t('tickets.noProvider')}
          data={providers.map((p) => ({
            value: p.plugin_id,
            label: `${p.catalog_plugin_id} ${p.version}`,
          }))}
          value={pluginId}
          onChange={setPluginId}
          allowDeselect={false}
          data-testid="ticket-provider"
        />
        <TextInput
          label={t('tickets.defaultTarget')}
          description={t('tickets.defaultTargetHelp')}
          value={target}
          onChange={(e) => setTarget(e.currentTarget.value)}
        />
        <Radio.Group
          label={t('tickets.trackerClosed')}
          value={closed}
          onChange={(v) => setClosed(v as ClosedAction)}
        >
          <Stack gap={4} mt={4}>
            <Radio value="none" label={t('tickets.closed.none')} />
            <Radio value="mark_fixed" label={t('tickets.closed.mark_fixed')} />
          </Stack>
        </Radio.Group>
        <Checkbox
          label={t('tickets.sync')}
          checked={sync}
          onChange={(e) => setSync(e.currentTarget.checked)}
        />
        <Text size="sm" data-testid="ticket-secrets-set">
          {config.secret_settings_set.length > 0
            ? t('tickets.secretsSet', { names: config.secret_settings_set.join(', ') })
            : t('tickets.noSecrets')}
        </Text>
        <ErrorAlert error={save.error} />
        <Group gap="xs">
          <Button type="submit" loading={save.isPending} disabled={!pluginId}>
            {t('common.save')}
          </Button>
          {save.isSuccess && (
            <Text size="sm" c="#1e6b30" role="status" data-testid="ticket-config-saved">
              {t('projects.saved')}
            </Text>
          )}
        </Group>
      </Stack>
    </form>
  );
}

function Webhook({ projectId, config }: { projectId: string; config: Config }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const [rotated, setRotated] = useState<Rotated | undefined>(undefined);
  const rotate = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/projects/{id}/ticket-webhook/rotate', {
          params: { path: { id: projectId } },
        }),
      ),
    onSuccess: (answer) => {
      setRotated(answer);
      void queryClient.invalidateQueries({ queryKey: ['ticket-config', projectId] });
    },
  });
  return (
    <Stack gap={4} data-testid="ticket-webhook">
      <Title order={3} size="h6">
        {t('tickets.webhook')}
      </Title>
      <Text size="sm" data-testid="ticket-webhook-state">
        {config.webhook.secret_set
          ? t('tickets.webhookSet', { at: formatDate(config.webhook.rotated_at, locale) })
          : t('tickets.webhookNotSet')}
      </Text>
      <Text size="sm">
        {t('tickets.webhookPath')} <code>{config.webhook.url_template}</code>
      </Text>
      {rotated && (
        <OneTimeSecret
          label={t('tickets.webhook')}
          secret={rotated.secret}
          onDone={() => setRotated(undefined)}
        />
      )}
      <ErrorAlert error={rotate.error} />
      <Group>
        <Button
          variant="outline"
          onClick={() => rotate.mutate()}
          loading={rotate.isPending}
          disabled={!config.plugin_id}
        >
          {t('tickets.rotate')}
        </Button>
      </Group>
    </Stack>
  );
}

/**
 * The project's ticket tracker: which installed provider creates its tasks, the default target
 * (project, repository or list), what a task closed in the tracker does to findings, whether
 * finding statuses go to the tracker, and the tracker webhook's secret (shown once after a
 * rotation). Members read it; saving and rotating need `manage_notifications` (the API decides
 * and its localized error is shown). Secrets are never shown back: only which are set.
 */
export function ProjectTickets({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const providers = useQuery({
    queryKey: ['ticket-providers'],
    queryFn: () => call(api.GET('/api/v1/ticket-providers')),
  });
  const config = useQuery({
    queryKey: ['ticket-config', projectId],
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/ticket-provider/config', {
          params: { path: { id: projectId } },
        }),
      ),
  });
  return (
    <Paper withBorder p="xs" data-testid="project-tickets">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('tickets.title')}
        </Title>
        <ErrorAlert error={providers.error ?? config.error} />
        {providers.data?.length === 0 && <Text size="sm">{t('tickets.noProviders')}</Text>}
        {config.data && providers.data && providers.data.length > 0 && (
          <>
            {/* Mounted once with the stored values; a save keeps what was typed (and its note). */}
            <ConfigForm projectId={projectId} config={config.data} providers={providers.data} />
            <Webhook projectId={projectId} config={config.data} />
          </>
        )}
      </Stack>
    </Paper>
  );
}
