import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api/client';

/** What a person picker shows: the name, then the e-mail (the e-mail alone without a name). */
export function personLabel(p: { email: string; display_name?: string | null }): string {
  const name = p.display_name?.trim();
  return name && name !== p.email ? `${name} <${p.email}>` : p.email;
}

/**
 * Users of a project's screens found by name or e-mail (2 characters at least, 250 ms after the
 * last keystroke): `assignable` — who a finding may be assigned to; `directory` — every active
 * user, to add as a member.
 */
export function usePeopleSearch(
  projectId: string,
  text: string,
  scope: 'assignable' | 'directory',
) {
  const [debounced] = useDebouncedValue(text.trim(), 250);
  return useQuery({
    queryKey: ['people', projectId, scope, debounced],
    enabled: projectId !== '' && debounced.length >= 2,
    queryFn: () =>
      call(
        api.GET('/api/v1/users/search', {
          params: { query: { project_id: projectId, q: debounced, scope, limit: 20 } },
        }),
      ),
    staleTime: 30_000,
  });
}
