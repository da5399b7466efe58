import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';

/**
 * Whether the signed-in user holds `manage_scope` on the project (a project admin or an
 * administrator): the screen offers the changing controls only then. The API still decides.
 */
export function useCanManageScope(projectId: string): boolean {
  const me = useQuery({
    queryKey: ['auth-me'],
    queryFn: () => call(api.GET('/api/v1/auth/me')),
    staleTime: 60_000,
  });
  return (me.data?.permissions ?? []).some(
    (p) => p.permission === 'manage_scope' && (p.level === 'global' || p.project_id === projectId),
  );
}
