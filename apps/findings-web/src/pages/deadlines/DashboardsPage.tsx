import { Group, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
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
import { api, call } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useI18n } from '../../i18n/i18n';

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

/** Compliance by severity and the trend over the period (Recharts, loaded with this page only). */
export default function DashboardsPage() {
  const { t } = useI18n();
  const [days, setDays] = useState(30);
  const compliance = useQuery({
    queryKey: ['sla-compliance', days],
    queryFn: () =>
      call(api.GET('/api/v1/dashboard/sla-compliance', { params: { query: { days } } })),
  });
  const trend = useQuery({
    queryKey: ['sla-trend', days],
    queryFn: () => call(api.GET('/api/v1/dashboard/sla-trend', { params: { query: { days } } })),
  });
  const overall = compliance.data?.overall;
  const hours = (n: number | null | undefined) =>
    n === null || n === undefined ? '—' : t('dash.hours', { n: Math.round(n * 10) / 10 });
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={1} size="h3">
          {t('dash.title')}
        </Title>
        <NumberInput
          size="xs"
          w={140}
          min={1}
          max={365}
          label={t('dash.days')}
          value={days}
          onChange={(v) => setDays(typeof v === 'number' ? v : 30)}
        />
      </Group>
      <ErrorAlert error={compliance.error ?? trend.error} />
      {overall && (
        <SimpleGrid cols={{ base: 2, md: 5 }}>
          <Figure
            label={t('dash.overall')}
            value={`${overall.compliance_percent ?? '—'} %`}
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
            <BarChart data={compliance.data?.by_severity ?? []}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="severity" />
              <YAxis domain={[0, 100]} />
              <Tooltip />
              <Legend />
              <Bar dataKey="compliance_percent" name={t('dash.compliance')} fill="#364fc7" />
              <Bar dataKey="open" name={t('dash.open')} fill="#868e96" />
            </BarChart>
          </ResponsiveContainer>
        </Paper>
        <Paper withBorder p="xs" data-testid="trend-chart">
          <Title order={2} size="h5" mb="xs">
            {t('dash.trend')}
          </Title>
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={trend.data?.points ?? []}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="date" />
              <YAxis />
              <Tooltip />
              <Legend />
              <Line
                dataKey="compliance_percent"
                name={t('dash.compliance')}
                stroke="#364fc7"
                dot={false}
              />
              <Line
                dataKey="breached_opened"
                name={t('dash.overdue')}
                stroke="#c92a2a"
                dot={false}
              />
              <Line dataKey="fixed" name={t('status.fixed')} stroke="#2b8a3e" dot={false} />
            </LineChart>
          </ResponsiveContainer>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="xs">
        <Title order={2} size="h5" mb="xs">
          {t('dash.mttr')}
        </Title>
        <SimpleGrid cols={{ base: 2, md: 5 }} data-testid="mttr-by-severity">
          {(compliance.data?.by_severity ?? []).map((s) => (
            <Figure key={s.severity} label={s.severity} value={hours(s.mttr_hours)} />
          ))}
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
