import { useQuery } from '@tanstack/react-query';
import { api, call, type Finding } from '../../api/client';
import { useSession } from '../../auth/useSession';

/**
 * Whether the signed-in person may change the finding (`write_findings`: an administrator, or
 * an admin or analyst of its project). Only hides controls: the API decides anyway.
 */
export function useCanWrite(finding: Finding): boolean {
  const { user } = useSession();
  const members = useQuery({
    queryKey: ['members', finding.project_id],
    enabled: user !== undefined && !user.is_admin,
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/members', { params: { path: { id: finding.project_id } } }),
      ),
  });
  if (!user) return false;
  if (user.is_admin) return true;
  const role = members.data?.find((m) => m.user_id === user.id)?.role;
  return role === 'admin' || role === 'analyst';
}
