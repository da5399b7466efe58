import { ErrorAlert } from '@platform/web-ui';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { required, useFieldErrors } from '../../components/field-checks';
import { SeverityBadge, StatusBadge } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { endOfDay, isoDay } from '../findings/day-input';
import { justificationProblem } from '../findings/justification';
import { RiskUntilInput } from '../findings/RiskUntilInput';
import { bodySelection, useRollupAction, useRollupMembers, type RollupAxis } from './rollup-api';

type Action = 'risk_accepted' | 'wont_fix' | 'ticket';
const TITLE_MAX = 255;

/** One roll-up row opened: its findings (paged) and a bulk action on all of them. */
export function RollupRowPanel({
  axis,
  rowKey,
  selection,
  onClose,
}: {
  axis: RollupAxis;
  rowKey: string;
  selection: Record<string, string>;
  onClose(): void;
}) {
  const { t } = useI18n();
  const members = useRollupMembers(axis, rowKey, selection);
  const items = members.data?.pages.flatMap((p) => p.items) ?? [];
  const [action, setAction] = useState<Action | null>(null);
  const [riskUntil, setRiskUntil] = useState(isoDay(90));
  const [justification, setJustification] = useState('');
  const [title, setTitle] = useState(`${axis}: ${rowKey}`.slice(0, TITLE_MAX));
  const [done, setDone] = useState<string>();
  const { errors, check, clear } = useFieldErrors<'riskUntil' | 'justification' | 'title'>();
  const run = useRollupAction((r) => {
    if (r.status_change) {
      setDone(
        t('findings.bulkDone', {
          changed: r.status_change.changed,
          matched: r.status_change.matched,
        }),
      );
    } else if (r.ticket) {
      setDone(
        t('findings.bulkTicketDone', {
          key: r.ticket.ticket.task_key,
          linked: r.ticket.linked.length,
          skipped: r.ticket.skipped.length,
        }),
      );
    }
  });
  const apply = () => {
    if (!action) return;
    setDone(undefined);
    const ok = check({
      riskUntil:
        action === 'risk_accepted' &&
        (required(t, riskUntil) ?? (riskUntil < isoDay(1) && t('validation.dayFromTomorrow'))),
      justification: action !== 'ticket' && justificationProblem(t, action, justification),
      title:
        action === 'ticket' &&
        (required(t, title.trim()) ??
          (title.length > TITLE_MAX && t('validation.maxLength', { max: TITLE_MAX }))),
    });
    if (!ok) return;
    run.mutate({
      axis,
      key: rowKey,
      ...bodySelection(selection),
      action,
      ...(action === 'risk_accepted' ? { risk_accepted_until: endOfDay(riskUntil) } : {}),
      ...(action === 'ticket' ? { title: title.trim() } : { justification: justification.trim() }),
    });
  };
  const noProvider =
    run.error instanceof ApiError && run.error.code === 'ticket_provider_not_configured';
  return (
    <Paper withBorder p="xs" data-testid="rollup-row-panel">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h5">
            {t(`groups.axis.${axis}`)}: <code>{rowKey}</code>
          </Title>
          <Button size="xs" variant="default" onClick={onClose}>
            {t('rollup.close')}
          </Button>
        </Group>
        <ErrorAlert error={members.error} />
        <Table withTableBorder fz="xs" layout="fixed" data-testid="rollup-members">
          <Table.Tbody>
            {items.map((f) => (
              <Table.Tr key={f.id} data-testid="rollup-member">
                <Table.Td w={90}>
                  <SeverityBadge severity={f.severity} />
                </Table.Td>
                <Table.Td w={120}>
                  <StatusBadge status={f.status} />
                </Table.Td>
                <Table.Td style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  <Anchor component={Link} to={`/findings/${f.id}`} size="xs">
                    {f.title}
                  </Anchor>
                </Table.Td>
                <Table.Td w={200} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
                  {f.project_name} / {f.product_name}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {members.hasNextPage && (
          <Button size="xs" variant="default" onClick={() => void members.fetchNextPage()}>
            {t('common.loadMore')}
          </Button>
        )}
        <Group align="end" gap="xs" data-testid="rollup-action">
          <Select
            size="xs"
            w={220}
            label={t('rollup.action')}
            data={[
              { value: 'risk_accepted', label: t('status.risk_accepted') },
              { value: 'wont_fix', label: t('status.wont_fix') },
              { value: 'ticket', label: t('rollup.oneTask') },
            ]}
            value={action}
            onChange={(v) => {
              setAction(v as Action | null);
              run.reset();
            }}
          />
          {action === 'risk_accepted' && (
            <RiskUntilInput
              value={riskUntil}
              onChange={(day) => {
                setRiskUntil(day);
                clear('riskUntil');
              }}
              error={errors.riskUntil}
            />
          )}
          {(action === 'risk_accepted' || action === 'wont_fix') && (
            <TextInput
              size="xs"
              w={240}
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
          {action === 'ticket' && (
            <TextInput
              size="xs"
              w={260}
              withAsterisk
              label={t('findings.bulkTicketTitle')}
              value={title}
              onChange={(e) => {
                setTitle(e.currentTarget.value);
                clear('title');
              }}
              error={errors.title}
            />
          )}
          <Button size="xs" onClick={apply} loading={run.isPending} disabled={!action}>
            {t('common.apply')}
          </Button>
        </Group>
        {noProvider && (
          <Alert
            color="blue.9"
            variant="outline"
            data-testid="no-ticket-provider"
            title={t('rollup.noProviderTitle')}
          >
            {t('rollup.noProvider')}
          </Alert>
        )}
        <ErrorAlert error={run.error} />
        {done && (
          <Text size="sm" role="status" data-testid="rollup-done">
            {done}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
