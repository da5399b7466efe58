import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { api, call, type Severity } from '../../api/client';
import { SeverityBadge, formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';

/**
 * The deadlines that are close (the open `approaching` violations: running clocks within their
 * lead and not yet passed), soonest first, or a sentence saying there are none.
 */
export function DueSoon() {
  const { t, locale } = useI18n();
  const dueSoon = useQuery({
    queryKey: ['violations', 'due-soon'],
    queryFn: () =>
      call(
        api.GET('/api/v1/sla/violations', {
          params: { query: { state: 'open', kind: 'approaching', limit: 100 } },
        }),
      ),
  });
  const items = [...(dueSoon.data?.items ?? [])].sort((a, b) => a.due_at.localeCompare(b.due_at));
  return (
    <Paper withBorder p="xs" data-testid="due-soon">
      <Title order={2} size="h5" mb="xs">
        {t('deadlines.dueSoon')}
      </Title>
      <ErrorAlert error={dueSoon.error} />
      {dueSoon.data && items.length === 0 && (
        <Text size="sm" data-testid="due-soon-empty">
          {t('deadlines.dueSoonEmpty')}
        </Text>
      )}
      {items.length > 0 && (
        <Table withTableBorder fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('findings.severity')}</Table.Th>
              <Table.Th>{t('findings.titleCol')}</Table.Th>
              <Table.Th>{t('findings.project')}</Table.Th>
              <Table.Th>{t('deadlines.dueAt')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((v) => (
              <Table.Tr key={v.id} data-testid={`due-soon-${v.finding_id}`}>
                <Table.Td>
                  <SeverityBadge severity={v.severity as Severity} />
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/findings/${v.finding_id}`} size="sm">
                    {v.finding_title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  {v.project_name} / {v.product_name}
                </Table.Td>
                <Table.Td>{formatDate(v.due_at, locale)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
