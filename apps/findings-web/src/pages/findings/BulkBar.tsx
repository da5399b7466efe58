import { ErrorAlert } from '@platform/web-ui';
import { Button, Group, Paper, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { latestError } from '../../api/client';
import { required, useFieldErrors } from '../../components/field-checks';
import { useI18n } from '../../i18n/i18n';
import { useBulkChanges } from './api/findings';
import { useBulkTicket } from './api/finding-ticket';
import { MergeDialog } from './MergeDialog';
import { BulkStatusFields } from './BulkStatusFields';

const TICKET_TITLE_MAX = 255;

function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Tags and status for the selected findings (loaded with the first selection). */
export default function BulkBar({ ids, onDone }: { ids: string[]; onDone(message: string): void }) {
  const { t } = useI18n();
  const [add, setAdd] = useState('');
  const [remove, setRemove] = useState('');
  const [ticketTitle, setTicketTitle] = useState('');
  const [merging, setMerging] = useState(false);
  const { errors, check, clear } = useFieldErrors<'ticketTitle'>();
  const bulk = useBulkChanges(ids, (r) =>
    onDone(t('findings.bulkDone', { changed: r.changed, matched: r.matched })),
  );
  const ticket = useBulkTicket((r) =>
    onDone(
      t('findings.bulkTicketDone', {
        key: r.ticket.task_key,
        linked: r.linked.length,
        skipped: r.skipped.length,
      }),
    ),
  );
  const createTicket = () => {
    const title = ticketTitle.trim();
    const ok = check({
      ticketTitle:
        required(t, title) ??
        (title.length > TICKET_TITLE_MAX && t('validation.maxLength', { max: TICKET_TITLE_MAX })),
    });
    if (!ok) return;
    ticket.mutate({ finding_ids: ids, title, skip_ticketed: true });
  };
  return (
    <Paper withBorder p="xs" data-testid="bulk-bar">
      <Group align="end" gap="xs">
        <Text size="sm" fw={600}>
          {t('findings.selected', { n: ids.length })}
        </Text>
        <TextInput
          size="xs"
          label={t('findings.bulkAddTags')}
          value={add}
          onChange={(e) => setAdd(e.currentTarget.value)}
        />
        <TextInput
          size="xs"
          label={t('findings.bulkRemoveTags')}
          value={remove}
          onChange={(e) => setRemove(e.currentTarget.value)}
        />
        <Button
          size="xs"
          onClick={() => bulk.tags.mutate({ add: splitTags(add), remove: splitTags(remove) })}
          loading={bulk.tags.isPending}
          disabled={!add && !remove}
        >
          {t('findings.bulkTags')}
        </Button>
        <BulkStatusFields
          label={t('findings.bulkStatus')}
          pending={bulk.status.isPending}
          onApply={(change) => bulk.status.mutate(change)}
        />
        <TextInput
          size="xs"
          w={240}
          label={t('findings.bulkTicketTitle')}
          value={ticketTitle}
          onChange={(e) => {
            setTicketTitle(e.currentTarget.value);
            clear('ticketTitle');
          }}
          error={errors.ticketTitle}
          data-testid="bulk-ticket-title"
        />
        <Button size="xs" variant="default" onClick={createTicket} loading={ticket.isPending}>
          {t('findings.bulkTicket')}
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => setMerging(true)}
          disabled={ids.length < 2}
          data-testid="bulk-merge"
        >
          {t('merge.open')}
        </Button>
      </Group>
      {merging && (
        <MergeDialog
          ids={ids}
          onClose={() => setMerging(false)}
          onDone={(message) => {
            setMerging(false);
            onDone(message);
          }}
        />
      )}
      <ErrorAlert error={latestError(bulk.tags, bulk.status, ticket)} />
    </Paper>
  );
}
