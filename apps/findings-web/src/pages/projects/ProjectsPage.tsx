import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { SEVERITIES, api, call } from '../../api/client';
import { InlineCreateForm } from '../../components/InlineCreateForm';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';

export default function ProjectsPage() {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
  });
  const create = useMutation({
    mutationFn: (body: { name: string; description: string }) =>
      call(api.POST('/api/v1/projects', { body })),
    onSuccess: (project) => {
      void queryClient.invalidateQueries({ queryKey: ['projects'] });
      void navigate(`/projects/${project.id}`);
    },
  });
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {t('projects.title')}
      </Title>
      <InlineCreateForm
        label={t('projects.new')}
        fields={[
          { name: 'name', label: t('common.name'), required: true },
          { name: 'description', label: t('common.description') },
        ]}
        pending={create.isPending}
        onCreate={(values) => create.mutateAsync(values)}
      />
      <ErrorAlert error={create.error ?? projects.error} />
      <Table striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('common.name')}</Table.Th>
            <Table.Th>{t('common.description')}</Table.Th>
            <Table.Th>{t('projects.findings')}</Table.Th>
            <Table.Th>{t('common.created')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(projects.data ?? []).map((p) => (
            <Table.Tr key={p.id} data-testid="project-row">
              <Table.Td>
                <Anchor component={Link} to={`/projects/${p.id}`}>
                  {p.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{p.description}</Table.Td>
              <Table.Td data-testid="project-counts">
                <Anchor component={Link} to={`/findings?project_id=${p.id}`} size="sm">
                  {t('projects.findingCounts', {
                    total: p.finding_counts.total,
                    open: p.finding_counts.open,
                  })}
                </Anchor>
                <Group gap={4} mt={2}>
                  {SEVERITIES.filter((s) => p.finding_counts.open_by_severity[s] > 0).map((s) => (
                    <Text key={s} size="xs" data-severity={s}>
                      {t(`severity.${s}`)}: {p.finding_counts.open_by_severity[s]}
                    </Text>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>{formatDate(p.created_at, locale)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
