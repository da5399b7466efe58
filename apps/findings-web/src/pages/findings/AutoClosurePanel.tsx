import { ErrorAlert } from '@platform/web-ui';
import { List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call, type Finding } from '../../api/client';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import {
  closureEvidence,
  productCheckSentence,
  stateSentence,
  type AutoClosureView,
  type Sentence,
} from './auto-closure-text';
import { ClosureEvidence } from './ClosureEvidence';
import { Reverification } from './Reverification';

/** States that change without the person doing anything: polled while shown. */
const MOVING: AutoClosureView['state'][] = ['awaiting_confirmation', 'awaiting_cap', 'eligible'];

/**
 * Why the finding is (not yet) closed automatically (GET /findings/{id}/auto-closure): the state
 * in words, the reports of the current streak, the last check and the scanner's answer, why the
 * product's last check was skipped; a closure with its evidence. Then manual re-verification.
 */
export function AutoClosurePanel({ finding }: { finding: Finding }) {
  const { t, locale } = useI18n();
  const view = useQuery({
    // A status change (a person's, or a closure seen on the finding) asks again.
    queryKey: ['auto-closure', finding.id, finding.status],
    queryFn: () =>
      call(api.GET('/api/v1/findings/{id}/auto-closure', { params: { path: { id: finding.id } } })),
    refetchInterval: (query) => {
      const v = query.state.data;
      return v && (MOVING.includes(v.state) || v.last_product_check?.state === 'running')
        ? 5000
        : false;
    },
  });
  const say = (s: Sentence) =>
    t(
      s.key,
      Object.fromEntries(
        Object.entries(s.params).map(([name, value]) => [
          name,
          name === 'at' ? formatDate(String(value), locale) : value,
        ]),
      ),
    );
  const v = view.data;
  const evidence = v?.closure ? closureEvidence(v.closure.evidence) : undefined;
  const open = v !== undefined && v.state !== 'closed';
  const productCheck = v && productCheckSentence(v);
  return (
    <Stack gap={4} data-testid="auto-closure" data-state={v?.state ?? ''}>
      <Title order={2} size="h5">
        {t('autoClosure.title')}
      </Title>
      <ErrorAlert error={view.error} />
      {v && (
        <Text size="sm" fw={600} data-testid="auto-closure-state">
          {say(stateSentence(v))}
        </Text>
      )}
      {v?.state === 'closed' && evidence && <ClosureEvidence evidence={evidence} />}
      {open && v.reports.length > 0 && (
        <>
          <Text size="xs">{t('autoClosure.streakReports')}</Text>
          <List size="xs" type="ordered" data-testid="streak-reports">
            {v.reports.map((report) => (
              <List.Item key={report} ff="monospace">
                {report}
              </List.Item>
            ))}
          </List>
        </>
      )}
      {open && v.last_check && (
        <Text size="xs" data-testid="auto-closure-last-check">
          {t('autoClosure.lastCheck', {
            result: lookUp(t, 'verdict', v.last_check.result),
            report: v.last_check.report_id,
            at: formatDate(v.last_check.at, locale),
          })}
        </Text>
      )}
      {open && v.confirmation && (
        <Text size="xs" data-testid="auto-closure-answer">
          {t('autoClosure.scannerAnswer', {
            result: lookUp(t, 'verdict', v.confirmation.result),
            at: formatDate(v.confirmation.at, locale),
          })}
        </Text>
      )}
      {open && productCheck && (
        <Text size="xs" data-testid="auto-closure-product-check">
          {say(productCheck)}
        </Text>
      )}
      <Reverification finding={finding} />
    </Stack>
  );
}
