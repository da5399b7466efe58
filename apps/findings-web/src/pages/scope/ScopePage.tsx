import { ErrorAlert } from '@platform/web-ui';
import { Alert, Anchor, Code, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router-dom';
import { api, call, type Schemas } from '../../api/client';
import { ProjectChooser } from '../../components/ProjectChooser';
import { useI18n } from '../../i18n/i18n';
import { IpamImport } from './IpamImport';
import { useCanManageScope } from './scope-access';
import { ScopeEntries } from './ScopeEntries';
import { ScopeProposals } from './ScopeProposals';

type ExportDto = Schemas['ScopeExportDto'];

/** What a scanner gets from the export: the targets, and the names to skip. */
function ScopeExport({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const exported = useQuery({
    queryKey: ['scope-export', projectId],
    // format=json: the envelope (the text/plain alternative is for scanners).
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/scope/export', {
          params: { path: { id: projectId }, query: { format: 'json' } },
        }) as Promise<{ data?: { data: ExportDto }; error?: unknown; response: Response }>,
      ),
  });
  const data = exported.data;
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('scope.export')}
        </Title>
        <Text size="sm">{t('scope.exportHint')}</Text>
        <ErrorAlert error={exported.error} />
        {data && data.targets.length === 0 && <Text size="sm">{t('scope.exportEmpty')}</Text>}
        {data && data.targets.length > 0 && (
          <Code block data-testid="scope-export" aria-label={t('scope.exportTargets')}>
            {data.targets.join('\n')}
          </Code>
        )}
        {data && data.exclude_targets.length > 0 && (
          <>
            <Text size="sm">{t('scope.exportExcludes')}</Text>
            <Code block data-testid="scope-export-excludes">
              {data.exclude_targets.join('\n')}
            </Code>
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** `/scope`: the projects, each linking to its page. */
function ScopeProjects() {
  const { t } = useI18n();
  return (
    <ProjectChooser
      title={t('nav.scope')}
      hint={t('scope.chooseProject')}
      linkTo={(id) => `/projects/${id}/scope`}
    />
  );
}

/**
 * A project's scan perimeter (docs/findings-service/scope.md): its entries, the scanners'
 * pending proposals, the export and the NetBox import. Members without `manage_scope` see it
 * read-only; the API decides either way.
 */
export default function ScopePage() {
  const { id } = useParams();
  const { t } = useI18n();
  const projectId = id ?? '';
  const canManage = useCanManageScope(projectId);
  const project = useQuery({
    queryKey: ['project', projectId],
    queryFn: () => call(api.GET('/api/v1/projects/{id}', { params: { path: { id: projectId } } })),
    enabled: projectId !== '',
  });
  if (!id) return <ScopeProjects />;
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('scope.title', { project: project.data?.name ?? '' })}
      </Title>
      <Anchor component={Link} to={`/projects/${projectId}`} size="sm">
        {t('scope.backToProject')}
      </Anchor>
      <ErrorAlert error={project.error} />
      {!canManage && (
        <Alert color="dark" variant="outline" data-testid="scope-read-only">
          {t('scope.readOnly')}
        </Alert>
      )}
      <ScopeEntries projectId={projectId} canManage={canManage} />
      <ScopeProposals projectId={projectId} canManage={canManage} />
      <ScopeExport projectId={projectId} />
      {canManage && <IpamImport projectId={projectId} />}
    </Stack>
  );
}
