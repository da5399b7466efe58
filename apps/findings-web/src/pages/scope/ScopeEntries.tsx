import { ErrorAlert } from '@platform/web-ui';
import {
  Badge,
  Button,
  Group,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, callVoid, type Schemas } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/en';
import { ScopeValue } from './ScopeValue';

type Mode = Schemas['NewScopeEntryDto']['mode'] & string;

export function modeLabel(mode: string): MessageKey {
  return mode === 'exclude' ? 'scope.mode.exclude' : 'scope.mode.include';
}

/** Invalidates what an entry change shows: the entries, the export, the proposals. */
export function refreshPerimeter(
  queryClient: ReturnType<typeof useQueryClient>,
  projectId: string,
): void {
  for (const key of ['scope-entries', 'scope-export', 'scope-proposals']) {
    void queryClient.invalidateQueries({ queryKey: [key, projectId] });
  }
}

function AddEntries({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [values, setValues] = useState('');
  const [mode, setMode] = useState<Mode>('include');
  const [comment, setComment] = useState('');
  const add = useMutation({
    mutationFn: () =>
      call(
        api.POST('/api/v1/projects/{id}/scope/entries', {
          params: { path: { id: projectId } },
          body: {
            entries: values
              .split('\n')
              .map((v) => v.trim())
              .filter((v) => v !== '')
              .map((value) => ({ value, mode, ...(comment.trim() ? { comment } : {}) })),
          },
        }),
      ),
    onSuccess: () => {
      setValues('');
      setComment('');
      refreshPerimeter(queryClient, projectId);
    },
  });
  return (
    <form
      aria-label={t('scope.newEntries')}
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate();
      }}
    >
      <Stack gap="xs">
        <Textarea
          size="xs"
          autosize
          minRows={2}
          label={t('scope.values')}
          description={t('scope.valuesHint')}
          value={values}
          onChange={(e) => setValues(e.currentTarget.value)}
          required
        />
        <Group align="end" gap="xs">
          <SegmentedControl
            size="xs"
            aria-label={t('scope.mode')}
            value={mode}
            onChange={(v) => setMode(v as Mode)}
            data={[
              { value: 'include', label: t('scope.mode.include') },
              { value: 'exclude', label: t('scope.mode.exclude') },
            ]}
          />
          <TextInput
            size="xs"
            w={280}
            label={t('scope.comment')}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
          />
          <Button size="xs" type="submit" loading={add.isPending}>
            {t('common.add')}
          </Button>
          {add.isSuccess && (
            <Text size="sm" c="#1e6b30" data-testid="scope-added">
              {t('scope.added', { n: add.data.length })}
            </Text>
          )}
        </Group>
        <ErrorAlert error={add.error} />
      </Stack>
    </form>
  );
}

/**
 * The perimeter's entries in the order they were added (keyset pages), each with its mode,
 * kind and origin; project admins add (one value per line) and delete them.
 */
export function ScopeEntries({ projectId, canManage }: { projectId: string; canManage: boolean }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const entries = useInfiniteQuery({
    queryKey: ['scope-entries', projectId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      call(
        api.GET('/api/v1/projects/{id}/scope', {
          params: { path: { id: projectId }, query: { limit: 200, cursor: pageParam } },
        }),
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const remove = useMutation({
    mutationFn: (entryId: string) =>
      callVoid(
        api.DELETE('/api/v1/projects/{id}/scope/entries/{entry_id}', {
          params: { path: { id: projectId, entry_id: entryId } },
        }),
      ),
    onSuccess: () => refreshPerimeter(queryClient, projectId),
  });
  const rows = entries.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('scope.entries')}
        </Title>
        <ErrorAlert error={entries.error ?? remove.error} />
        {entries.isSuccess && rows.length === 0 && <Text size="sm">{t('scope.noEntries')}</Text>}
        {rows.length > 0 && (
          <Table withTableBorder fz="sm" data-testid="scope-entries">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('scope.mode')}</Table.Th>
                <Table.Th>{t('scope.value')}</Table.Th>
                <Table.Th>{t('scope.kind')}</Table.Th>
                <Table.Th>{t('scope.origin')}</Table.Th>
                <Table.Th>{t('scope.comment')}</Table.Th>
                {canManage && <Table.Th>{t('scope.delete')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={e.id} data-testid="scope-entry">
                  <Table.Td>
                    <Badge
                      size="sm"
                      variant={e.mode === 'exclude' ? 'filled' : 'outline'}
                      color="dark"
                      data-testid="scope-entry-mode"
                    >
                      {t(modeLabel(e.mode))}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <ScopeValue value={e.value} unicode={e.value_unicode} />
                  </Table.Td>
                  <Table.Td>{e.kind}</Table.Td>
                  <Table.Td>{e.origin}</Table.Td>
                  <Table.Td>{e.comment ?? t('common.none')}</Table.Td>
                  {canManage && (
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={t('scope.deleteEntry', { value: e.value_unicode })}
                        loading={remove.isPending && remove.variables === e.id}
                        onClick={() => remove.mutate(e.id)}
                      >
                        {t('scope.delete')}
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {entries.hasNextPage && (
          <Button
            size="xs"
            variant="default"
            onClick={() => void entries.fetchNextPage()}
            loading={entries.isFetchingNextPage}
          >
            {t('common.loadMore')}
          </Button>
        )}
        {canManage && <AddEntries projectId={projectId} />}
      </Stack>
    </Paper>
  );
}
