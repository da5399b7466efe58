import { ErrorAlert } from '@platform/web-ui';
import {
  Button,
  Checkbox,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type Schemas } from '../../api/client';
import { useI18n } from '../../i18n/i18n';

type Rule = Schemas['SuppressionRuleDto'];

export interface RuleDraft {
  name: string;
  query: string;
  reason: string;
  enabled: boolean;
}

/**
 * Create or edit a rule: name, text, reason, enabled; "Preview" counts the findings the text
 * matches now before anything is saved (POST …/suppression-rules/preview).
 */
export function SuppressionRuleForm({
  projectId,
  rule,
  initial,
  onDone,
}: {
  projectId: string;
  /** The rule being edited; undefined: a new one. */
  rule?: Rule;
  initial: RuleDraft;
  onDone: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<RuleDraft>(initial);
  const set = (patch: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const preview = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/projects/{id}/suppression-rules/preview', {
          params: { path: { id: projectId } },
          body: { query: draft.query },
        }),
      ),
  });
  const save = useMutation({
    mutationFn: async () => {
      const body = {
        name: draft.name,
        query: draft.query,
        reason: draft.reason.trim() === '' ? null : draft.reason,
        enabled: draft.enabled,
      };
      if (rule) {
        return call(
          api.PUT('/api/v1/projects/{id}/suppression-rules/{rule_id}', {
            params: { path: { id: projectId, rule_id: rule.id } },
            body,
          }),
        );
      }
      return call(
        api.POST('/api/v1/projects/{id}/suppression-rules', {
          params: { path: { id: projectId } },
          body,
        }),
      );
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['suppression-rules', projectId] });
      onDone();
    },
  });
  const title = rule ? t('suppression.editRule', { name: rule.name }) : t('suppression.newRule');
  return (
    <Paper withBorder p="xs">
      <form
        aria-label={title}
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h5">
            {title}
          </Title>
          <TextInput
            size="xs"
            required
            label={t('common.name')}
            value={draft.name}
            maxLength={200}
            onChange={(e) => set({ name: e.currentTarget.value })}
          />
          <Textarea
            size="xs"
            required
            autosize
            minRows={2}
            label={t('suppression.query')}
            description={t('suppression.queryHint')}
            value={draft.query}
            onChange={(e) => {
              set({ query: e.currentTarget.value });
              preview.reset();
            }}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <TextInput
            size="xs"
            label={t('suppression.reason')}
            value={draft.reason}
            maxLength={2000}
            onChange={(e) => set({ reason: e.currentTarget.value })}
          />
          <Checkbox
            size="xs"
            label={t('suppression.enabled')}
            checked={draft.enabled}
            onChange={(e) => set({ enabled: e.currentTarget.checked })}
          />
          {preview.data && (
            <Text size="sm" data-testid="suppression-preview" role="status">
              {t('suppression.previewResult', {
                matched: String(preview.data.matched),
                suppressed: String(preview.data.already_suppressed),
              })}
            </Text>
          )}
          <ErrorAlert error={preview.error ?? save.error} />
          <Group gap="xs">
            <Button
              size="xs"
              variant="default"
              loading={preview.isPending}
              disabled={draft.query.trim() === ''}
              onClick={() => preview.mutate()}
            >
              {t('suppression.preview')}
            </Button>
            <Button size="xs" type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
            <Button size="xs" variant="subtle" onClick={onDone}>
              {t('common.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
