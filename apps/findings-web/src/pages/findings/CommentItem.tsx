import { ErrorAlert } from '@platform/web-ui';
import { Button, Group, Paper, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client';
import type { components } from '../../api/schema.gen';
import { useSession } from '../../auth/useSession';
import { required, useFieldErrors } from '../../components/field-checks';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { useDeleteComment, useEditComment } from './api/finding-comments';
import { findingQueryKeys } from './api/finding-query-keys';

type Comment = components['schemas']['FindingCommentDto'];

export const COMMENT_MAX = 4000;

/**
 * What the signed-in person may do with comments of a project's finding
 * (docs/findings-service/findings-api.md, Comments): edit only their own; delete their own, or
 * any as an admin of the project or a global admin. Only hides controls: the API decides.
 */
export function useCommentRights(projectId: string | undefined): {
  userId: string | undefined;
  moderates: boolean;
} {
  const { user } = useSession();
  const members = useQuery({
    queryKey: findingQueryKeys.members(projectId ?? ''),
    enabled: user !== undefined && !user.is_admin && projectId !== undefined,
    queryFn: () =>
      call(api.GET('/api/v1/projects/{id}/members', { params: { path: { id: projectId ?? '' } } })),
  });
  if (!user) return { userId: undefined, moderates: false };
  const role = members.data?.find((m) => m.user_id === user.id)?.role;
  return { userId: user.id, moderates: user.is_admin || role === 'admin' };
}

/** One comment of the thread: author, time, text; Edit for its author, Delete for author and moderators. */
export function CommentItem({
  findingId,
  comment: c,
  rights,
}: {
  findingId: string;
  comment: Comment;
  rights: { userId: string | undefined; moderates: boolean };
}) {
  const { t, locale } = useI18n();
  const edit = useEditComment(findingId);
  const remove = useDeleteComment(findingId);
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const { errors, check, clear } = useFieldErrors<'body'>();
  const own = rights.userId !== undefined && c.author.id === rights.userId;
  const author = c.author.display_name || c.author.email;
  return (
    <Paper withBorder p="xs" data-testid="comment" data-author={c.author.email}>
      <Text size="xs" c="gray.8" data-testid="comment-meta">
        <b>{author}</b>
        {c.author.display_name && c.author.display_name !== c.author.email
          ? ` (${c.author.email})`
          : ''}{' '}
        · {formatDate(c.created_at, locale)}
        {c.edited_at ? ` · ${t('comments.edited')}` : ''}
      </Text>
      {draft === undefined ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="comment-body">
          {c.body}
        </Text>
      ) : (
        <form
          noValidate
          aria-label={t('comments.editOne')}
          onSubmit={(e) => {
            e.preventDefault();
            const ok = check({
              body:
                required(t, draft) ??
                (draft.trim().length > COMMENT_MAX &&
                  t('validation.maxLength', { max: COMMENT_MAX })),
            });
            if (ok) {
              edit.mutate(
                { commentId: c.id, body: draft.trim() },
                { onSuccess: () => setDraft(undefined) },
              );
            }
          }}
        >
          <Textarea
            size="xs"
            label={t('comments.text')}
            autosize
            minRows={2}
            value={draft}
            onChange={(e) => {
              setDraft(e.currentTarget.value);
              clear('body');
            }}
            error={errors.body}
          />
          <ErrorAlert error={edit.error} />
          <Group gap="xs" mt={4}>
            <Button size="xs" type="submit" loading={edit.isPending}>
              {t('common.save')}
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => {
                setDraft(undefined);
                clear('body');
                edit.reset();
              }}
            >
              {t('common.cancel')}
            </Button>
          </Group>
        </form>
      )}
      {draft === undefined && (own || rights.moderates) && (
        <Group gap="xs" mt={4}>
          {own && (
            <Button
              size="compact-xs"
              variant="subtle"
              aria-label={t('comments.editOf', { author })}
              onClick={() => {
                setConfirming(false);
                setDraft(c.body);
              }}
            >
              {t('comments.edit')}
            </Button>
          )}
          {!confirming ? (
            <Button
              size="compact-xs"
              variant="subtle"
              aria-label={t('comments.deleteOf', { author })}
              onClick={() => setConfirming(true)}
            >
              {t('comments.delete')}
            </Button>
          ) : (
            <>
              <Text size="xs" c="red.9">
                {t('comments.confirmDelete')}
              </Text>
              <Button
                size="compact-xs"
                color="red.9"
                loading={remove.isPending}
                onClick={() => remove.mutate(c.id)}
              >
                {t('comments.delete')}
              </Button>
              <Button size="compact-xs" variant="default" onClick={() => setConfirming(false)}>
                {t('common.cancel')}
              </Button>
            </>
          )}
        </Group>
      )}
      <ErrorAlert error={remove.error} />
    </Paper>
  );
}
