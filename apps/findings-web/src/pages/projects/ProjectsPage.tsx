import { Anchor, Button, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { api, call } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';

export default function ProjectsPage() {
  const { t, locale } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
  });
  const create = useMutation({
    mutationFn: () => call(api.POST('/api/v1/projects', { body: { name, description } })),
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
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
        aria-label={t('projects.new')}
      >
        <Group align="end" gap="xs">
          <TextInput
            size="xs"
            required
            label={t('common.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <TextInput
            size="xs"
            label={t('common.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Button size="xs" type="submit" loading={create.isPending}>
            {t('projects.new')}
          </Button>
        </Group>
      </form>
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
