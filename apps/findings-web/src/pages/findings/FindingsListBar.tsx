import { ErrorAlert } from '@platform/web-ui';
import { Button, CloseButton, Group, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useI18n } from '../../i18n/i18n';
import { downloadFindingsCsv, useFindingsCount } from './api/finding-selection';
import type { FilterKey, ViewState } from './view-state';

/** "1 768 findings" (exact up to 10 000), "about 250 000 findings" above. */
export function FindingsTotal({ selection }: { selection: Record<string, string> }) {
  const { t, locale } = useI18n();
  const count = useFindingsCount(selection);
  if (!count.data) return null;
  const n = new Intl.NumberFormat(locale === 'ru' ? 'ru-RU' : 'en-GB')
    .format(count.data.count)
    .replace(/[\u202f\u00a0,]/g, '\u00a0');
  return (
    <Text size="sm" fw={600} data-testid="findings-total" data-count={count.data.count}>
      {count.data.exact ? t('findings.total', { n }) : t('findings.totalAbout', { n })}
    </Text>
  );
}

/** The current list (filters or query) as a CSV file. */
export function ExportButton({ selection }: { selection: Record<string, string> }) {
  const { t } = useI18n();
  const exporting = useMutation({ mutationFn: () => downloadFindingsCsv(selection) });
  return (
    <>
      <Button
        size="xs"
        variant="default"
        loading={exporting.isPending}
        onClick={() => exporting.mutate()}
        data-testid="export-csv"
      >
        {t('findings.exportCsv')}
      </Button>
      {exporting.error && <ErrorAlert error={exporting.error} />}
    </>
  );
}

const LINKED: {
  key: FilterKey;
  label: 'findings.rule' | 'findings.file' | 'findings.report' | 'findings.createdByReport';
}[] = [
  { key: 'rule_id', label: 'findings.rule' },
  { key: 'file_path_exact', label: 'findings.file' },
  { key: 'last_report_id', label: 'findings.report' },
  { key: 'first_report_id', label: 'findings.createdByReport' },
];

/** The filters a link set (a group, a report's findings), each with a button to drop it. */
export function LinkedFilters({
  view,
  onChange,
}: {
  view: ViewState;
  onChange(next: ViewState): void;
}) {
  const { t } = useI18n();
  const shown = view.mode === 'filters' ? LINKED.filter((f) => view.filters[f.key]) : [];
  if (shown.length === 0) return null;
  return (
    <Group gap="xs" data-testid="linked-filters">
      {shown.map((f) => (
        <Group key={f.key} gap={2} data-testid={`linked-filter-${f.key}`}>
          <Text size="sm">
            {t(f.label)}: <code>{view.filters[f.key]}</code>
          </Text>
          <CloseButton
            size="sm"
            aria-label={`${t('common.remove')} ${t(f.label)}`}
            onClick={() => {
              const filters = { ...view.filters };
              delete filters[f.key];
              onChange({ ...view, filters });
            }}
          />
        </Group>
      ))}
    </Group>
  );
}
