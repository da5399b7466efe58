import { ErrorAlert } from '@platform/web-ui';
import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import { fieldChanges, plainValue, valueKind, type FieldChange } from './action-changes';
import { useFindingActions } from './api/findings';
import { closureEvidence } from './auto-closure-text';
import { ClosureEvidence } from './ClosureEvidence';
import { actorText } from './people';

function Value({ field, value }: { field: string; value: unknown }) {
  const { t, locale } = useI18n();
  const kind = valueKind(field, value);
  if (kind === 'empty') return <Text span>—</Text>;
  if (kind === 'time') return <Text span>{formatDate(value as string, locale)}</Text>;
  if (kind === 'status') return <Text span>{lookUp(t, 'status', value as string)}</Text>;
  if (kind === 'severity') return <Text span>{lookUp(t, 'severity', value as string)}</Text>;
  if (kind === 'report')
    return (
      <Anchor
        component={Link}
        to={`/findings?first_report_id=${encodeURIComponent(value as string)}`}
        size="xs"
        underline="always"
      >
        {t('finding.reportFindings')}
      </Anchor>
    );
  return <Text span>{plainValue(value)}</Text>;
}

/** One changed field: before → after; an automatic closure's evidence in words. */
function Change({ change }: { change: FieldChange }) {
  const { t } = useI18n();
  const evidence = change.field === 'evidence' ? closureEvidence(change.after) : undefined;
  return (
    <Text size="xs" component="div" data-testid="action-change" data-field={change.field}>
      <Text span fw={600}>
        {lookUp(t, 'field', change.field)}
      </Text>
      {': '}
      {evidence ? (
        <ClosureEvidence evidence={evidence} />
      ) : (
        <>
          <Value field={change.field} value={change.before} /> →{' '}
          <Value field={change.field} value={change.after} />
        </>
      )}
    </Text>
  );
}

/** The finding's action log, oldest first: who, when, what, and each field before → after. */
export function ActionLog({ id }: { id: string }) {
  const { t, locale } = useI18n();
  const actions = useFindingActions(id);
  return (
    <Stack gap={4}>
      <Title order={2} size="h5">
        {t('finding.actions')}
      </Title>
      <ErrorAlert error={actions.error} />
      <Table striped withTableBorder fz="xs" data-testid="action-log">
        <Table.Tbody>
          {(actions.data ?? []).map((a) => (
            <Table.Tr key={a.id} data-testid="action" data-action={a.action}>
              <Table.Td>{formatDate(a.at, locale)}</Table.Td>
              <Table.Td>
                {a.actor.type === 'system' ? a.actor.label : actorText(a.actor, '')}
                {a.actor.type === 'system' && (
                  <Badge ml={4} size="xs" variant="outline" color="gray">
                    {t('finding.actionAutomatic')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td fw={600}>{lookUp(t, 'action', a.action)}</Table.Td>
              <Table.Td>
                {fieldChanges(a.from, a.to, t('finding.deletedUser')).map((c) => (
                  <Change key={c.field} change={c} />
                ))}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
