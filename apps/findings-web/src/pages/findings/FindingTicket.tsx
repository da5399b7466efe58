import { ErrorAlert } from '@platform/web-ui';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import type { Finding, Schemas } from '../../api/client';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { useCreateTicket, useLinkTicket, useTicketTargets } from './api/finding-ticket';
import { useCanWrite } from './finding-access';

type FindingTicketView = Schemas['FindingTicketDto'];
type FindingDetail = Schemas['FindingDetailDto'];

const STATUS_COLOR: Record<string, string> = {
  open: 'indigo.8',
  in_progress: 'orange.9',
  resolved: 'teal.9',
  closed: 'gray.8',
};

const COMMENT_MAX = 10_000;
const TASK_ID_MAX = 200;

/** The finding's task: its key linking to the tracker, its state there, how it came. */
function TicketSummary({ ticket }: { ticket: FindingTicketView }) {
  const { t, locale } = useI18n();
  return (
    <Stack gap={4} data-testid="finding-ticket">
      <Group gap="xs">
        <Anchor
          href={/^https?:\/\//i.test(ticket.url) ? ticket.url : undefined}
          target="_blank"
          rel="noopener noreferrer"
          fw={600}
          data-testid="ticket-key"
        >
          {ticket.task_key}
        </Anchor>
        <Badge color={STATUS_COLOR[ticket.status] ?? 'gray.8'} data-testid="ticket-status">
          {lookUp(t, 'ticket.status', ticket.status)}
        </Badge>
      </Group>
      {ticket.raw_status && (
        <Text size="xs" c="gray.8">
          {t('ticket.rawStatus', { status: ticket.raw_status })}
        </Text>
      )}
      <Text size="xs" c="gray.8">
        {t('ticket.how', {
          how: lookUp(t, 'ticket.origin', ticket.origin),
          at: formatDate(ticket.linked_at, locale),
        })}
      </Text>
      {ticket.finding_count > 1 && (
        <Text size="xs" c="gray.8" data-testid="ticket-shared">
          {t('ticket.shared', { n: ticket.finding_count })}
        </Text>
      )}
      {ticket.sync_error && (
        <Text size="xs" c="red.9" data-testid="ticket-sync-error">
          {t('ticket.syncError', { reason: ticket.sync_error })}
        </Text>
      )}
    </Stack>
  );
}

/** A new task (target and a first comment), or an existing one linked by its key or label. */
function TicketForms({ finding }: { finding: Finding }) {
  const { t } = useI18n();
  const targets = useTicketTargets(finding.project_id, true);
  const create = useCreateTicket(finding.id);
  const link = useLinkTicket(finding.id);
  const [target, setTarget] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const [taskId, setTaskId] = useState('');
  const [taskIdTouched, setTaskIdTouched] = useState(false);
  if (targets.isPending) return <Text size="sm">{t('common.loading')}</Text>;
  if (targets.data === null) {
    return (
      <Text size="sm" c="gray.8" data-testid="ticket-no-tracker">
        {t('ticket.noTracker')}
      </Text>
    );
  }
  const commentError =
    comment.length > COMMENT_MAX ? t('validation.maxLength', { max: COMMENT_MAX }) : undefined;
  const taskIdError = !taskIdTouched
    ? undefined
    : taskId.trim() === ''
      ? t('validation.required')
      : taskId.length > TASK_ID_MAX
        ? t('validation.maxLength', { max: TASK_ID_MAX })
        : undefined;
  const busy = create.isPending || link.isPending;
  const submitCreate = () => {
    if (commentError) return;
    link.reset();
    create.mutate({
      ...(target ? { target } : {}),
      ...(comment.trim() ? { comment } : {}),
    });
  };
  const submitLink = () => {
    setTaskIdTouched(true);
    if (taskId.trim() === '' || taskId.length > TASK_ID_MAX) return;
    create.reset();
    link.mutate({ task_id: taskId.trim(), by_label: false, replace: false });
  };
  return (
    <Stack gap="xs">
      <ErrorAlert error={targets.error} />
      {targets.data && targets.data.length > 0 && (
        <Select
          size="xs"
          label={t('ticket.target')}
          placeholder={t('ticket.targetDefault')}
          data={targets.data.map((x) => ({ value: x.id, label: `${x.name} (${x.id})` }))}
          value={target}
          onChange={setTarget}
          clearable
          clearButtonProps={{ 'aria-label': t('common.clear') }}
          data-testid="ticket-target"
        />
      )}
      <Textarea
        size="xs"
        label={t('ticket.comment')}
        autosize
        minRows={2}
        value={comment}
        onChange={(e) => setComment(e.currentTarget.value)}
        error={commentError}
        data-testid="ticket-comment"
      />
      <Button size="xs" onClick={submitCreate} loading={create.isPending} disabled={busy}>
        {t('ticket.create')}
      </Button>
      <Group gap="xs" align="end" wrap="nowrap">
        <TextInput
          size="xs"
          label={t('ticket.taskKey')}
          value={taskId}
          onChange={(e) => setTaskId(e.currentTarget.value)}
          onBlur={() => setTaskIdTouched(taskId !== '')}
          error={taskIdError}
          style={{ flex: 1 }}
          data-testid="ticket-task-key"
        />
        <Button size="xs" variant="default" onClick={submitLink} disabled={busy}>
          {t('ticket.link')}
        </Button>
      </Group>
      <ErrorAlert error={create.error ?? link.error} />
    </Stack>
  );
}

/** The finding page's ticket panel: the task, or (for who may change the finding) making one. */
export function FindingTicket({ finding }: { finding: FindingDetail }) {
  const { t } = useI18n();
  const canWrite = useCanWrite(finding);
  return (
    <Stack gap={6} data-testid="finding-page-ticket">
      <Text size="sm" fw={600}>
        {t('ticket.title')}
      </Text>
      {finding.ticket ? (
        <TicketSummary ticket={finding.ticket} />
      ) : canWrite ? (
        <TicketForms finding={finding} />
      ) : (
        <Text size="sm" c="gray.8">
          {t('ticket.none')}
        </Text>
      )}
    </Stack>
  );
}
