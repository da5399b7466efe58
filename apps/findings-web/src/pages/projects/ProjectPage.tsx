import { ErrorAlert } from '@platform/web-ui';
import {
  Anchor,
  Autocomplete,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import {
  SEVERITIES,
  api,
  call,
  callVoid,
  latestError,
  type Schemas,
  type Severity,
} from '../../api/client';
import { InlineCreateForm } from '../../components/InlineCreateForm';
import { required, useFieldErrors } from '../../components/field-checks';
import { personLabel, usePeopleSearch } from '../../components/people-search';
import { useI18n } from '../../i18n/i18n';
import { ProjectChannels } from './ProjectChannels';
import { ProjectTickets } from './ProjectTickets';
import { ReportUpload } from './ReportUpload';
import { VerificationEndpoint } from './VerificationEndpoint';

type Settings = Schemas['ProjectSettingsDto'];
type Role = Schemas['PutMemberDto']['role'];
const ROLES: Role[] = ['admin', 'analyst', 'viewer'];

function SettingsForm({ projectId, settings }: { projectId: string; settings: Settings }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [days, setDays] = useState<Record<Severity, number | null>>({
    ...settings.remediation_days,
  });
  const [autoVerify, setAutoVerify] = useState(settings.auto_verify_fixes);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/api/v1/projects/{id}/settings', {
          params: { path: { id: projectId } },
          body: {
            remediation_days: days as Schemas['RemediationDaysPatchDto'],
            auto_verify_fixes: autoVerify,
          },
        }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(['project-settings', projectId], saved),
  });
  return (
    <Paper withBorder p="xs">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        aria-label={t('projects.settings')}
      >
        <Stack gap="xs">
          <Title order={2} size="h5">
            {t('projects.settings')}
          </Title>
          <Text size="sm">{t('projects.remediationDays')}</Text>
          <Group gap="xs">
            {SEVERITIES.map((s) => (
              <NumberInput
                key={s}
                size="xs"
                w={110}
                min={1}
                label={s}
                value={days[s] ?? ''}
                onChange={(v) => setDays({ ...days, [s]: typeof v === 'number' ? v : null })}
              />
            ))}
          </Group>
          <Checkbox
            label={t('projects.autoVerify')}
            checked={autoVerify}
            onChange={(e) => setAutoVerify(e.currentTarget.checked)}
          />
          <ErrorAlert error={save.error} />
          <Group>
            <Button size="xs" type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
            {save.isSuccess && (
              <Text size="sm" c="#1e6b30" data-testid="settings-saved">
                {t('projects.saved')}
              </Text>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function Members({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const people = usePeopleSearch(projectId, email, 'directory');
  const { errors, check, clear } = useFieldErrors<'email'>();
  const members = useQuery({
    queryKey: ['members', projectId],
    queryFn: () =>
      call(api.GET('/api/v1/projects/{id}/members', { params: { path: { id: projectId } } })),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['members', projectId] });
  const put = useMutation({
    mutationFn: (m: { user_id: string; role: Role }) =>
      call(
        api.PUT('/api/v1/projects/{id}/members/{user_id}', {
          params: { path: { id: projectId, user_id: m.user_id } },
          body: { role: m.role },
        }),
      ),
    onSuccess: refresh,
  });
  const addByEmail = useMutation({
    mutationFn: (m: { email: string; role: Role }) =>
      call(
        api.POST('/api/v1/projects/{id}/members', { params: { path: { id: projectId } }, body: m }),
      ),
    onSuccess: () => {
      setEmail('');
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (user: string) =>
      callVoid(
        api.DELETE('/api/v1/projects/{id}/members/{user_id}', {
          params: { path: { id: projectId, user_id: user } },
        }),
      ),
    onSuccess: refresh,
  });
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('projects.members')}
        </Title>
        <Table fz="sm" withTableBorder>
          <Table.Tbody>
            {(members.data ?? []).map((m) => (
              <Table.Tr key={m.user_id}>
                <Table.Td>{m.display_name || m.email}</Table.Td>
                <Table.Td>{m.email}</Table.Td>
                <Table.Td>
                  <Select
                    size="xs"
                    aria-label={`${t('projects.role')} ${m.email}`}
                    data={ROLES}
                    value={m.role}
                    onChange={(v) => v && put.mutate({ user_id: m.user_id, role: v as Role })}
                  />
                </Table.Td>
                <Table.Td>
                  <Button size="xs" variant="default" onClick={() => remove.mutate(m.user_id)}>
                    {t('common.remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <form
          noValidate
          aria-label={t('projects.addMember')}
          onSubmit={(e) => {
            e.preventDefault();
            const typed = email.trim();
            if (check({ email: required(t, typed) }))
              addByEmail.mutate({ email: typed.replace(/^.*<([^>]+)>$/, '$1'), role });
          }}
        >
          <Group align="start" gap="xs">
            <Autocomplete
              size="xs"
              w={320}
              label={t('projects.memberEmail')}
              placeholder={t('people.searchHint')}
              value={email}
              onChange={(v) => {
                setEmail(v);
                clear('email');
              }}
              data={(people.data ?? []).map((p) => p.email)}
              renderOption={({ option }) => {
                const p = people.data?.find((x) => x.email === option.value);
                if (!p) return option.value;
                return p.role
                  ? `${personLabel(p)} · ${t('people.alreadyMember', { role: p.role })}`
                  : personLabel(p);
              }}
              filter={({ options }) => options}
              error={errors.email}
              data-testid="member-picker"
            />
            <Select
              size="xs"
              w={120}
              label={t('projects.role')}
              data={ROLES}
              value={role}
              onChange={(v) => setRole((v as Role) ?? 'analyst')}
            />
            <Button size="xs" type="submit" mt={22} loading={addByEmail.isPending}>
              {t('common.add')}
            </Button>
          </Group>
        </form>
        <ErrorAlert error={members.error ?? people.error ?? latestError(put, remove, addByEmail)} />
      </Stack>
    </Paper>
  );
}

function Products({ projectId }: { projectId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const products = useQuery({
    queryKey: ['products', projectId],
    queryFn: () =>
      call(api.GET('/api/v1/projects/{id}/products', { params: { path: { id: projectId } } })),
  });
  const create = useMutation({
    mutationFn: ({ name, repository }: { name: string; repository: string }) =>
      call(
        api.POST('/api/v1/projects/{id}/products', {
          params: { path: { id: projectId } },
          body: { name, scan_enabled: true, ...(repository ? { repository_url: repository } : {}) },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['products', projectId] });
    },
  });
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('projects.products')}
        </Title>
        {(products.data ?? []).map((p) => (
          <Paper key={p.id} withBorder p="xs" data-testid="product">
            <Text size="sm" fw={600}>
              {p.name}
            </Text>
            {p.repository_url && (
              <Text size="sm" data-testid="product-repository">
                {t('projects.repository')}:{' '}
                {/^https?:\/\//i.test(p.repository_url) ? (
                  <Anchor
                    href={p.repository_url}
                    target="_blank"
                    rel="noopener noreferrer"
                    size="sm"
                  >
                    {p.repository_url}
                  </Anchor>
                ) : (
                  p.repository_url
                )}
              </Text>
            )}
            <ReportUpload productId={p.id} />
          </Paper>
        ))}
        <InlineCreateForm
          label={t('projects.newProduct')}
          fields={[
            { name: 'name', label: t('common.name'), required: true },
            { name: 'repository', label: t('projects.repository') },
          ]}
          pending={create.isPending}
          onCreate={(values) => create.mutateAsync(values)}
        />
        <ErrorAlert error={products.error ?? create.error} />
      </Stack>
    </Paper>
  );
}

export default function ProjectPage() {
  const { id = '' } = useParams();
  const { t } = useI18n();
  const project = useQuery({
    queryKey: ['project', id],
    queryFn: () => call(api.GET('/api/v1/projects/{id}', { params: { path: { id } } })),
  });
  const settings = useQuery({
    queryKey: ['project-settings', id],
    queryFn: () => call(api.GET('/api/v1/projects/{id}/settings', { params: { path: { id } } })),
  });
  return (
    <Stack gap="sm">
      <Title order={1} size="h3">
        {project.data?.name ?? ''}
      </Title>
      <Anchor component={Link} to={`/projects/${id}/scope`} size="sm">
        {t('scope.link')}
      </Anchor>
      <ErrorAlert error={project.error ?? settings.error} />
      <Products projectId={id} />
      {settings.data && <SettingsForm projectId={id} settings={settings.data} />}
      <VerificationEndpoint projectId={id} />
      <Members projectId={id} />
      <ProjectChannels projectId={id} />
      <ProjectTickets projectId={id} />
    </Stack>
  );
}
