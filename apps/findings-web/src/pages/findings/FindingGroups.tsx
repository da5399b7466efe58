import { ErrorAlert } from '@platform/web-ui';
import { Button, Table, Text, UnstyledButton } from '@mantine/core';
import { SEVERITIES } from '../../api/client';
import { SeverityBadge } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { useFindingGroups } from './api/finding-selection';
import type { GroupBy } from './view-state';

/**
 * The selection grouped by rule or file with counts (most findings first); a group opens the
 * list of its findings.
 */
export function FindingGroups({
  selection,
  by,
  onOpen,
}: {
  selection: Record<string, string>;
  by: GroupBy;
  onOpen(key: string): void;
}) {
  const { t } = useI18n();
  const groups = useFindingGroups(selection, by);
  const items = groups.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <ErrorAlert error={groups.error} />
      <Table striped withTableBorder fz="sm" data-testid="finding-groups" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{by === 'rule' ? t('findings.rule') : t('findings.file')}</Table.Th>
            <Table.Th w={90}>{t('findings.groupCount')}</Table.Th>
            <Table.Th w={360}>{t('findings.severity')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.data && items.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={3}>{t('findings.groupsEmpty')}</Table.Td>
            </Table.Tr>
          )}
          {items.map((g) => (
            <Table.Tr key={g.key} data-testid="finding-group" data-key={g.key}>
              <Table.Td>
                <UnstyledButton onClick={() => onOpen(g.key)} fz="sm" c="blue.9" td="underline">
                  {by === 'rule' ? (
                    <>
                      <code>{g.key}</code>
                      {g.title && g.title !== g.key ? ` · ${g.title}` : ''}
                    </>
                  ) : (
                    <code>{g.key}</code>
                  )}
                </UnstyledButton>
              </Table.Td>
              <Table.Td data-testid="group-count">{g.count}</Table.Td>
              <Table.Td>
                {SEVERITIES.filter((s) => g.by_severity[s] > 0).map((s) => (
                  <Text span key={s} mr={8} size="sm">
                    <SeverityBadge severity={s} /> {g.by_severity[s]}
                  </Text>
                ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {groups.hasNextPage && (
        <Button size="xs" variant="default" onClick={() => void groups.fetchNextPage()}>
          {t('common.loadMore')}
        </Button>
      )}
    </>
  );
}
