import { Button, Group, Paper, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { MANUAL_STATUSES, latestError, type ManualStatus } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { required, useFieldErrors } from '../../components/field-checks';
import { useI18n } from '../../i18n/i18n';
import { useBulkChanges } from './api/findings';
import { useBulkTicket } from './api/finding-ticket';
import { endOfDay, isoDay } from './day-input';
import { RiskUntilInput } from './RiskUntilInput';
import { MergeDialog } from './MergeDialog';
import { JUSTIFIED, justificationProblem } from './justification';

const TICKET_TITLE_MAX = 255;

// A bulk change never targets waiting (it needs a per-finding reason and date), nor renewed.
const BULK_STATUSES = MANUAL_STATUSES.filter((s) => s !== 'waiting');

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
  const [status, setStatus] = useState<ManualStatus | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [justification, setJustification] = useState('');
  const [ticketTitle, setTicketTitle] = useState('');
  const [merging, setMerging] = useState(false);
  const { errors, check, clear } = useFieldErrors<'riskUntil' | 'justification' | 'ticketTitle'>();
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
  const applyStatus = () => {
    if (!status) return;
    const ok = check({
      riskUntil:
        status === 'risk_accepted' &&
        (required(t, riskUntil) ?? (riskUntil < isoDay(1) && t('validation.dayFromTomorrow'))),
      justification: justificationProblem(t, status, justification),
    });
    if (!ok) return;
    bulk.status.mutate({
      status,
      ...(status === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
      ...(JUSTIFIED.has(status) ? { justification: justification.trim() } : {}),
    });
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
        <Select
          size="xs"
          w={180}
          label={t('findings.bulkStatus')}
          data={BULK_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
          value={status}
          onChange={(v) => setStatus(v as ManualStatus | null)}
        />
        {status === 'risk_accepted' && (
          <RiskUntilInput
            value={riskUntil}
            onChange={(day) => {
              setRiskUntil(day);
              clear('riskUntil');
            }}
            error={errors.riskUntil}
          />
        )}
        {status && JUSTIFIED.has(status) && (
          <TextInput
            size="xs"
            w={260}
            withAsterisk
            label={t('finding.justification')}
            value={justification}
            onChange={(e) => {
              setJustification(e.currentTarget.value);
              clear('justification');
            }}
            error={errors.justification}
          />
        )}
        <Button size="xs" onClick={applyStatus} loading={bulk.status.isPending} disabled={!status}>
          {t('common.apply')}
        </Button>
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
