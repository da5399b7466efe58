import { Anchor, Stack, Table, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { api, call } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
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
            <Table.Th>{t('common.created')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(projects.data ?? []).map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>
                <Anchor component={Link} to={`/projects/${p.id}`}>
                  {p.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{p.description}</Table.Td>
              <Table.Td>{formatDate(p.created_at, locale)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
