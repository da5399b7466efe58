import { Select, Stack } from '@mantine/core';
import type { Finding } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../i18n/i18n';
import { useProjectMembers, useUpdateFinding } from './api/findings';

/** Assignment to a member of the finding's project, or to no one. */
export function AssigneeForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const members = useProjectMembers(finding.project_id);
  const assign = useUpdateFinding(finding.id);
  return (
    <Stack gap={4}>
      <Select
        size="xs"
        label={t('finding.assignee')}
        placeholder={t('finding.unassigned')}
        data={(members.data ?? []).map((m) => ({
          value: m.user_id,
          label: `${m.display_name || m.email} (${m.role})`,
        }))}
        value={finding.assignee_id ?? null}
        onChange={(v) => assign.mutate({ assignee_id: v })}
        clearable
        searchable
      />
      <ErrorAlert error={assign.error ?? members.error} />
    </Stack>
  );
}
