import { ErrorAlert } from '@platform/web-ui';
import { Button, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { required, useFieldErrors } from '../../components/field-checks';
import { useI18n } from '../../i18n/i18n';
import { useAddComment, useFindingComments } from './api/finding-comments';
import { useFinding } from './api/findings';
import { COMMENT_MAX, CommentItem, useCommentRights } from './CommentItem';

/**
 * The discussion of a finding: each comment with its author and time, oldest first (editable by
 * its author, deletable by its author and the project's admins), and a new one.
 */
export function FindingComments({
  findingId,
  earlierNote,
}: {
  findingId: string;
  /** The old single triage note of the finding, kept readable above the thread. */
  earlierNote?: string | null;
}) {
  const { t } = useI18n();
  const comments = useFindingComments(findingId);
  const rights = useCommentRights(useFinding(findingId).data?.project_id);
  const add = useAddComment(findingId);
  const [body, setBody] = useState('');
  const { errors, check, clear } = useFieldErrors<'body'>();
  return (
    <Stack gap={4} data-testid="comments">
      <Title order={2} size="h5">
        {t('comments.title')}
      </Title>
      <ErrorAlert error={comments.error} />
      {earlierNote && (
        <Paper withBorder p="xs" data-testid="earlier-note">
          <Text size="xs" c="gray.8">
            {t('comments.earlierNote')}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {earlierNote}
          </Text>
        </Paper>
      )}
      {comments.data?.length === 0 && !earlierNote && (
        <Text size="sm" c="gray.8" data-testid="comments-empty">
          {t('comments.empty')}
        </Text>
      )}
      {(comments.data ?? []).map((c) => (
        <CommentItem key={c.id} findingId={findingId} comment={c} rights={rights} />
      ))}
      <form
        noValidate
        aria-label={t('comments.add')}
        onSubmit={(e) => {
          e.preventDefault();
          const ok = check({
            body:
              required(t, body) ??
              (body.trim().length > COMMENT_MAX && t('validation.maxLength', { max: COMMENT_MAX })),
          });
          if (ok) add.mutate(body.trim(), { onSuccess: () => setBody('') });
        }}
      >
        <Stack gap={4}>
          <Textarea
            size="xs"
            label={t('comments.new')}
            autosize
            minRows={2}
            value={body}
            onChange={(e) => {
              setBody(e.currentTarget.value);
              clear('body');
            }}
            error={errors.body}
          />
          <ErrorAlert error={add.error} />
          <Button size="xs" type="submit" loading={add.isPending} w="fit-content">
            {t('comments.add')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
