import { Button, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { required, useFieldErrors } from '../../components/field-checks';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { useAddComment, useFindingComments } from './api/finding-comments';

const COMMENT_MAX = 4000;

/** The discussion of a finding: each comment with its author and time, oldest first, and a new one. */
export function FindingComments({
  findingId,
  earlierNote,
}: {
  findingId: string;
  /** The old single triage note of the finding, kept readable above the thread. */
  earlierNote?: string | null;
}) {
  const { t, locale } = useI18n();
  const comments = useFindingComments(findingId);
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
        <Paper key={c.id} withBorder p="xs" data-testid="comment">
          <Text size="xs" c="gray.8" data-testid="comment-meta">
            <b>{c.author.display_name || c.author.email}</b>
            {c.author.display_name && c.author.display_name !== c.author.email
              ? ` (${c.author.email})`
              : ''}{' '}
            · {formatDate(c.created_at, locale)}
            {c.edited_at ? ` · ${t('comments.edited')}` : ''}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="comment-body">
            {c.body}
          </Text>
        </Paper>
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
