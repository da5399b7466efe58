import { ErrorAlert } from '@platform/web-ui';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, latestError, type Finding } from '../../api/client';
import { required, useFieldErrors } from '../../components/field-checks';
import { TagChip } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { findingQueryKeys } from './api/finding-query-keys';
import { useFindingTags } from './api/findings';

/**
 * A finding's tags: manual ones editable (added and removed here), enrichment and report tags
 * read-only (written by enrichers and by the uploaded report).
 */
export function TagsEditor({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const [tag, setTag] = useState('');
  const { errors, check, clear } = useFieldErrors<'tag'>();
  const { add, remove } = useFindingTags(finding.id);
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {t('finding.manualTags')}
      </Text>
      <Group gap={4} data-testid="manual-tags">
        {(finding.tags ?? []).map((name) => (
          <TagChip
            key={name}
            name={name}
            tone="manual"
            rightSection={
              <button
                type="button"
                aria-label={`${t('common.remove')} ${name}`}
                onClick={() => remove.mutate([name])}
                style={{ border: 0, background: 'none', cursor: 'pointer', padding: 0 }}
              >
                ×
              </button>
            }
          />
        ))}
      </Group>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (check({ tag: required(t, tag) }))
            add.mutate([tag.trim()], { onSuccess: () => setTag('') });
        }}
      >
        <Group gap={4} align="start">
          <TextInput
            size="xs"
            label={t('finding.addTag')}
            value={tag}
            onChange={(e) => {
              setTag(e.currentTarget.value);
              clear('tag');
            }}
            error={errors.tag}
          />
          <Button size="xs" type="submit" mt={22}>
            {t('common.add')}
          </Button>
        </Group>
      </form>
      <ErrorAlert error={latestError(add, remove)} />
      <Text size="sm" fw={600}>
        {t('finding.enrichmentTags')}
      </Text>
      <Group gap={4} data-testid="enrichment-tags">
        {(finding.enrichment_tags ?? []).map((name) => (
          <TagChip key={name} name={name} tone="read-only" />
        ))}
      </Group>
      <Text size="sm" fw={600}>
        {t('finding.reportTags')}
      </Text>
      <Group gap={4} data-testid="report-tags">
        {(finding.report_tags ?? []).map((name) => (
          <TagChip key={name} name={name} tone="read-only" />
        ))}
      </Group>
    </Stack>
  );
}

/** Enrichment by button: one per enabled enricher plugin (GET /plugins/capabilities/finding-enrichers). */
export function Enrichment({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const enrichers = useQuery({
    queryKey: ['finding-enrichers'],
    queryFn: () => call(api.GET('/api/v1/plugins/capabilities/finding-enrichers')),
    staleTime: 60_000,
  });
  const enrich = useMutation({
    mutationFn: (pluginId: string) =>
      call(
        api.POST('/api/v1/findings/{id}/enrich-tags/{plugin_id}', {
          params: { path: { id: finding.id, plugin_id: pluginId } },
        }),
      ),
    onSuccess: (result) => {
      queryClient.setQueryData<Finding>(findingQueryKeys.one(finding.id), (old) =>
        old ? { ...old, enrichment_tags: result.enrichment_tags } : old,
      );
      void queryClient.invalidateQueries({ queryKey: findingQueryKeys.actions(finding.id) });
    },
  });
  return (
    <Stack gap={4} data-testid="enrichment">
      <Text size="sm" fw={600}>
        {t('finding.enrich')}
      </Text>
      {enrichers.data?.length === 0 && <Text size="sm">{t('finding.noEnrichers')}</Text>}
      <Group gap={4}>
        {(enrichers.data ?? []).map((e) => (
          <Button
            key={e.id}
            size="xs"
            variant="default"
            loading={enrich.isPending && enrich.variables === e.id}
            onClick={() => enrich.mutate(e.id)}
          >
            {t('finding.enrichWith', { name: `${e.catalog_plugin_id} ${e.version}` })}
          </Button>
        ))}
      </Group>
      <ErrorAlert error={enrichers.error ?? enrich.error} />
    </Stack>
  );
}
