import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { api, call } from '../api/client';
import { ErrorAlert } from '@platform/web-ui';

/** A per-project page opened without a project: the caller's projects, each linking to it. */
export function ProjectChooser({
  title,
  hint,
  linkTo,
}: {
  title: string;
  hint: string;
  linkTo(projectId: string): string;
}) {
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
  });
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {title}
      </Title>
      <Text size="sm">{hint}</Text>
      <ErrorAlert error={projects.error} />
      <Table withTableBorder fz="sm">
        <Table.Tbody>
          {(projects.data ?? []).map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>
                <Anchor component={Link} to={linkTo(p.id)} size="sm">
                  {p.name}
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
