import { ErrorAlert } from '@platform/web-ui';
import { Select, Stack } from '@mantine/core';
import { useState } from 'react';
import type { Finding } from '../../api/client';
import { personLabel, usePeopleSearch } from '../../components/people-search';
import { useI18n } from '../../i18n/i18n';
import { useUpdateFinding } from './api/findings';

/**
 * Assignment to someone the finding can be assigned to (its project's members and global
 * admins), found by name or e-mail as the analyst types; or to no one.
 */
export function AssigneeForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const [search, setSearch] = useState(finding.assignee ? personLabel(finding.assignee) : '');
  const people = usePeopleSearch(finding.project_id, search, 'assignable');
  const assign = useUpdateFinding(finding.id);
  const current = finding.assignee
    ? [{ value: finding.assignee.id, label: personLabel(finding.assignee) }]
    : [];
  const found = (people.data ?? [])
    .filter((p) => p.id !== finding.assignee?.id)
    .map((p) => ({ value: p.id, label: personLabel(p) }));
  return (
    <Stack gap={4}>
      <Select
        size="xs"
        label={t('finding.assignee')}
        placeholder={t('people.searchHint')}
        data={[...current, ...found]}
        value={finding.assignee?.id ?? null}
        onChange={(v) => assign.mutate({ assignee_id: v })}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={
          search.trim().length >= 2 && people.data ? t('people.none') : undefined
        }
        clearable
        clearButtonProps={{ 'aria-label': t('common.clear') }}
        data-testid="assignee-picker"
      />
      <ErrorAlert error={assign.error ?? people.error} />
    </Stack>
  );
}
