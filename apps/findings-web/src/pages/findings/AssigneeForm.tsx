import { Select, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call, type Finding } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../i18n/i18n';

/** Assignment to a member of the finding's project, or to no one. */
export function AssigneeForm({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ['members', finding.project_id],
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/members', { params: { path: { id: finding.project_id } } }),
      ),
  });
  const assign = useMutation({
    mutationFn: (assignee: string | null) =>
      call(
        api.PATCH('/api/v1/findings/{id}', {
          params: { path: { id: finding.id } },
          body: { assignee_id: assignee },
        }),
      ),
    onSuccess: (updated) => {
      queryClient.setQueryData(['finding', finding.id], updated);
      void queryClient.invalidateQueries({ queryKey: ['finding-actions', finding.id] });
    },
  });
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
        onChange={(v) => assign.mutate(v)}
        clearable
      />
      <ErrorAlert error={assign.error ?? members.error} />
    </Stack>
  );
}
