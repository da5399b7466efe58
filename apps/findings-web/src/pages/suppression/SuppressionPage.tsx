import { ErrorAlert } from '@platform/web-ui';
import {
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  Progress,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { api, call, callVoid, type Schemas } from '../../api/client';
import { ProjectChooser } from '../../components/ProjectChooser';
import { useI18n } from '../../i18n/i18n';
import { RuleHistory } from './RuleHistory';
import { SuppressionRuleForm, type RuleDraft } from './SuppressionRuleForm';

type Rule = Schemas['SuppressionRuleDto'];

const EMPTY: RuleDraft = { name: '', query: '', reason: '', enabled: true };

/** `/suppression`: the projects, each linking to its page. */
function SuppressionProjects() {
  const { t } = useI18n();
  return (
    <ProjectChooser
      title={t('nav.suppression')}
      hint={t('suppression.chooseProject')}
      linkTo={(id) => `/projects/${id}/suppression`}
    />
  );
}

/** The last run of a rule: state, findings walked of the total, findings suppressed. */
function LastRun({ run }: { run: Rule['last_run'] }) {
  const { t } = useI18n();
  if (!run) return <Text size="xs">{t('suppression.neverRun')}</Text>;
  const percent = run.total > 0 ? Math.round((run.done / run.total) * 100) : 100;
  return (
    <Stack gap={2} data-testid="suppression-run">
      <Text size="xs">
        {t(`suppression.run.${run.state}` as 'suppression.run.running')} ·{' '}
        {t('suppression.runCounts', {
          done: run.done,
          total: run.total,
          matched: run.matched,
        })}
      </Text>
      {run.state === 'running' && (
        <Progress
          size="sm"
          value={percent}
          aria-label={t('suppression.runProgress', { percent })}
        />
      )}
    </Stack>
  );
}

function RuleRow({
  rule,
  projectId,
  onEdit,
}: {
  rule: Rule;
  projectId: string;
  onEdit: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['suppression-rules', projectId] });
    void queryClient.invalidateQueries({ queryKey: ['suppression-rule-log', projectId, rule.id] });
  };
  const path = { id: projectId, rule_id: rule.id };
  const toggle = useMutation({
    mutationFn: (enabled: boolean) =>
      call(
        api.PUT('/api/v1/projects/{id}/suppression-rules/{rule_id}', {
          params: { path },
          body: { enabled },
        }),
      ),
    onSuccess: refresh,
  });
  const run = useMutation({
    mutationFn: () =>
      call(api.POST('/api/v1/projects/{id}/suppression-rules/{rule_id}/run', { params: { path } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () =>
      callVoid(
        api.DELETE('/api/v1/projects/{id}/suppression-rules/{rule_id}', { params: { path } }),
      ),
    onSuccess: refresh,
  });
  const running = rule.last_run?.state === 'running';
  const [history, setHistory] = useState(false);
  return (
    <>
      <Table.Tr data-testid="suppression-rule">
        <Table.Td>
          <Text size="sm" fw={500}>
            {rule.name}
          </Text>
          {rule.reason && (
            <Text size="xs" c="dimmed">
              {rule.reason}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Code>{rule.query}</Code>
        </Table.Td>
        <Table.Td>
          <Switch
            size="xs"
            checked={rule.enabled}
            aria-label={t('suppression.enabledFor', { name: rule.name })}
            onChange={(e) => toggle.mutate(e.currentTarget.checked)}
          />
        </Table.Td>
        <Table.Td>
          <Badge variant="outline" color="dark" data-testid="suppressed-count">
            {rule.suppressed_findings}
          </Badge>
        </Table.Td>
        <Table.Td>
          <LastRun run={rule.last_run} />
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="default" onClick={onEdit}>
              {t('suppression.edit')}
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              aria-expanded={history}
              aria-label={t('suppression.historyOf', { name: rule.name })}
              onClick={() => setHistory((open) => !open)}
            >
              {t('suppression.history')}
            </Button>
            <Button
              size="compact-xs"
              variant="default"
              disabled={!rule.enabled || running}
              loading={run.isPending}
              onClick={() => run.mutate()}
            >
              {t('suppression.runNow')}
            </Button>
            <Button
              size="compact-xs"
              color="red.9"
              variant="outline"
              loading={remove.isPending}
              onClick={() => {
                if (window.confirm(t('suppression.confirmDelete', { name: rule.name }))) {
                  remove.mutate();
                }
              }}
            >
              {t('common.remove')}
            </Button>
          </Group>
          <ErrorAlert error={toggle.error ?? run.error ?? remove.error} />
        </Table.Td>
      </Table.Tr>
      {history && (
        <Table.Tr>
          <Table.Td colSpan={6}>
            <RuleHistory projectId={projectId} ruleId={rule.id} />
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

/**
 * A project's suppression rules (docs/findings-service/suppression.md): list, create (also
 * pre-filled from a finding: `?name=&query=`), edit, enable, delete, preview, run with its
 * progress (polled while a run is going).
 */
export default function SuppressionPage() {
  const { id } = useParams();
  const { t } = useI18n();
  const projectId = id ?? '';
  const [search, setSearch] = useSearchParams();
  const prefill = search.get('query');
  const [editing, setEditing] = useState<Rule | 'new' | undefined>(
    prefill !== null ? 'new' : undefined,
  );
  const project = useQuery({
    queryKey: ['project', projectId],
    queryFn: () => call(api.GET('/api/v1/projects/{id}', { params: { path: { id: projectId } } })),
    enabled: projectId !== '',
  });
  const rules = useQuery({
    queryKey: ['suppression-rules', projectId],
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/suppression-rules', {
          params: { path: { id: projectId } },
        }),
      ),
    enabled: projectId !== '',
    refetchInterval: (query) =>
      (query.state.data ?? []).some((r) => r.last_run?.state === 'running') ? 1000 : false,
  });
  if (!id) return <SuppressionProjects />;
  const close = () => {
    setEditing(undefined);
    if (prefill !== null) setSearch({}, { replace: true });
  };
  const initial: RuleDraft =
    editing === 'new'
      ? { ...EMPTY, name: search.get('name') ?? '', query: prefill ?? '' }
      : editing
        ? {
            name: editing.name,
            query: editing.query,
            reason: editing.reason ?? '',
            enabled: editing.enabled,
          }
        : EMPTY;
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('suppression.title', { project: project.data?.name ?? '' })}
      </Title>
      <Anchor component={Link} to={`/projects/${projectId}`} size="sm">
        {t('scope.backToProject')}
      </Anchor>
      <Text size="sm">{t('suppression.intro')}</Text>
      <ErrorAlert error={project.error ?? rules.error} />
      {editing === undefined && (
        <Group>
          <Button size="xs" onClick={() => setEditing('new')}>
            {t('suppression.newRule')}
          </Button>
        </Group>
      )}
      {editing !== undefined && (
        <SuppressionRuleForm
          key={editing === 'new' ? 'new' : editing.id}
          projectId={projectId}
          rule={editing === 'new' ? undefined : editing}
          initial={initial}
          onDone={close}
        />
      )}
      {rules.data && rules.data.length === 0 && (
        <Text size="sm" data-testid="suppression-empty">
          {t('suppression.empty')}
        </Text>
      )}
      {rules.data && rules.data.length > 0 && (
        <Table withTableBorder fz="sm" aria-label={t('suppression.rules')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('common.name')}</Table.Th>
              <Table.Th>{t('suppression.query')}</Table.Th>
              <Table.Th>{t('suppression.enabled')}</Table.Th>
              <Table.Th>{t('suppression.suppressed')}</Table.Th>
              <Table.Th>{t('suppression.lastRun')}</Table.Th>
              <Table.Th>{t('suppression.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rules.data.map((rule) => (
              <RuleRow
                key={rule.id}
                rule={rule}
                projectId={projectId}
                onEdit={() => setEditing(rule)}
              />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
