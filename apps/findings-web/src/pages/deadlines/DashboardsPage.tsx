import { ErrorAlert } from '@platform/web-ui';
import { Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api, call, type Severity } from '../../api/client';
import { formatDay } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';
import { parsePeriod } from './period';

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper withBorder p="xs" data-testid={testId}>
      <Text size="xs" c="gray.8">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

const percent = (v: number) => `${v} %`;
// Explicit, so the axis reads 0–100 % even before any figure exists.
const PERCENT_TICKS = [0, 25, 50, 75, 100];

/**
 * Compliance by severity and the trend over the period (Recharts, loaded with this page only),
 * for every project or one. Percentages sit on their own 0–100 % axis, counts on another; the
 * period is checked here (a whole number from 1 to 365) and only a valid one is sent.
 */
export default function DashboardsPage() {
  const { t, locale } = useI18n();
  const [periodText, setPeriodText] = useState('30');
  const [days, setDays] = useState(30);
  const [projectId, setProjectId] = useState<string | null>(null);
  const period = parsePeriod(periodText);
  const projects = useQuery({
    queryKey: ['projects'],
    queryFn: () => call(api.GET('/api/v1/projects')),
    staleTime: 60_000,
  });
  const query = { days, ...(projectId ? { project_id: projectId } : {}) };
  const compliance = useQuery({
    queryKey: ['sla-compliance', query],
    queryFn: () => call(api.GET('/api/v1/dashboard/sla-compliance', { params: { query } })),
  });
  const trend = useQuery({
    queryKey: ['sla-trend', query],
    queryFn: () => call(api.GET('/api/v1/dashboard/sla-trend', { params: { query } })),
  });
  const overall = compliance.data?.overall;
  const hours = (n: number | null | undefined) =>
    n === null || n === undefined ? '—' : t('dash.hours', { n: Math.round(n * 10) / 10 });
  const points = trend.data?.points ?? [];
  const trendEmpty =
    trend.data !== undefined &&
    points.every(
      (p) =>
        p.compliance_percent === null &&
        p.breached_opened === 0 &&
        p.approaching_opened === 0 &&
        p.fixed === 0,
    );
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('dash.title')}
        </Title>
        <Group gap="xs" align="start">
          <Select
            size="xs"
            w={220}
            label={t('findings.project')}
            placeholder={t('dash.allProjects')}
            data={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            value={projectId}
            onChange={setProjectId}
            searchable
            clearable
            clearButtonProps={{ 'aria-label': t('common.clear') }}
            data-testid="dash-project"
          />
          <TextInput
            size="xs"
            w={160}
            label={t('dash.days')}
            inputMode="numeric"
            value={periodText}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setPeriodText(text);
              const valid = parsePeriod(text);
              if (valid !== undefined) setDays(valid);
            }}
            error={period === undefined ? t('dash.daysInvalid') : undefined}
            data-testid="dash-days"
          />
        </Group>
      </Group>
      <ErrorAlert error={compliance.error ?? trend.error} />
      {overall && (
        <SimpleGrid cols={{ base: 2, md: 5 }}>
          <Figure
            label={t('dash.overall')}
            value={overall.compliance_percent === null ? '—' : percent(overall.compliance_percent)}
            testId="compliance-overall"
          />
          <Figure label={t('dash.mttr')} value={hours(overall.mttr_hours)} testId="mttr" />
          <Figure label={t('dash.open')} value={String(overall.open)} />
          <Figure label={t('dash.overdue')} value={String(overall.sla_overdue)} />
          <Figure label={t('dash.approaching')} value={String(overall.sla_approaching)} />
        </SimpleGrid>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Paper withBorder p="xs" data-testid="compliance-chart">
          <Title order={2} size="h5" mb="xs">
            {t('dash.compliance')}
          </Title>
          <ResponsiveContainer width="100%" height={260}>
            <BarChart
              data={(compliance.data?.by_severity ?? []).map((s) => ({
                ...s,
                label: t(`severity.${s.severity as Severity}`),
              }))}
            >
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="label" />
              <YAxis
                yAxisId="percent"
                domain={[0, 100]}
                ticks={PERCENT_TICKS}
                tickFormatter={percent}
              />
              <YAxis yAxisId="count" orientation="right" allowDecimals={false} />
              <Tooltip />
              <Legend />
              <Bar
                yAxisId="percent"
                dataKey="compliance_percent"
                name={t('dash.compliancePercent')}
                fill="#364fc7"
                unit=" %"
              />
              <Bar yAxisId="count" dataKey="open" name={t('dash.open')} fill="#868e96" />
            </BarChart>
          </ResponsiveContainer>
        </Paper>
        <Paper withBorder p="xs" data-testid="trend-chart">
          <Title order={2} size="h5" mb="xs">
            {t('dash.trend')}
          </Title>
          {trendEmpty ? (
            <Text size="sm" c="gray.8" data-testid="trend-empty" h={260}>
              {t('dash.trendEmpty', { days })}
            </Text>
          ) : (
            <ResponsiveContainer width="100%" height={260}>
              <LineChart data={points}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="date" tickFormatter={(d: string) => formatDay(d, locale)} />
                <YAxis
                  yAxisId="percent"
                  domain={[0, 100]}
                  ticks={PERCENT_TICKS}
                  tickFormatter={percent}
                />
                <YAxis yAxisId="count" orientation="right" allowDecimals={false} />
                <Tooltip labelFormatter={(d) => formatDay(String(d), locale)} />
                <Legend />
                <Line
                  yAxisId="percent"
                  dataKey="compliance_percent"
                  name={t('dash.compliancePercent')}
                  stroke="#364fc7"
                  dot={false}
                  unit=" %"
                />
                <Line
                  yAxisId="count"
                  dataKey="breached_opened"
                  name={t('dash.overdue')}
                  stroke="#c92a2a"
                  dot={false}
                />
                <Line
                  yAxisId="count"
                  dataKey="fixed"
                  name={t('status.fixed')}
                  stroke="#2b8a3e"
                  dot={false}
                />
              </LineChart>
            </ResponsiveContainer>
          )}
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="xs">
        <Title order={2} size="h5" mb="xs">
          {t('dash.mttr')}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 5 }} data-testid="mttr-by-severity">
          {(compliance.data?.by_severity ?? []).map((s) => (
            <Figure
              key={s.severity}
              label={t(`severity.${s.severity as Severity}`)}
              value={hours(s.mttr_hours)}
            />
          ))}
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
