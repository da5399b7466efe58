import { ErrorAlert, OneTimeSecret } from '@platform/web-ui';
import { Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, api, call, callVoid, type Schemas } from '../../api/client';
import { formatDate } from '../../components/labels';
import { useI18n } from '../../i18n/i18n';

type Endpoint = Schemas['VerificationEndpointDto'];

/**
 * The project's re-verification endpoint (project administrators; for anyone else the API
 * answers 403/404 and the section is not shown): its URL, the signing secret shown once after
 * it is set or rotated, rotation and removal (confirmed).
 */
export function VerificationEndpoint({ projectId }: { projectId: string }) {
  const { t, locale } = useI18n();
  const queryClient = useQueryClient();
  const key = ['verification-endpoint', projectId];
  const endpoint = useQuery({
    queryKey: key,
    queryFn: () =>
      call(
        api.GET('/api/v1/projects/{id}/verification-endpoint', {
          params: { path: { id: projectId } },
        }),
      ),
    retry: false,
  });
  // What the person typed; until then the stored URL.
  const [edited, setEdited] = useState<string>();
  const [secret, setSecret] = useState<string>();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const stored = endpoint.data?.url ?? '';
  const url = edited ?? stored;
  const saved = ({ secret: shown, ...rest }: Endpoint) => {
    queryClient.setQueryData(key, rest);
    setEdited(undefined);
    setSecret(shown);
  };
  const put = useMutation({
    mutationFn: (body: { url: string; rotate_secret?: boolean }) =>
      call(
        api.PUT('/api/v1/projects/{id}/verification-endpoint', {
          params: { path: { id: projectId } },
          body,
        }),
      ),
    onSuccess: saved,
  });
  const remove = useMutation({
    mutationFn: () =>
      callVoid(
        api.DELETE('/api/v1/projects/{id}/verification-endpoint', {
          params: { path: { id: projectId } },
        }),
      ),
    onSuccess: () => {
      setConfirmRemove(false);
      setSecret(undefined);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const denied =
    endpoint.error instanceof ApiError &&
    (endpoint.error.status === 403 || endpoint.error.status === 404);
  if (denied) return null;
  const e = endpoint.data;
  return (
    <Paper withBorder p="xs" data-testid="verification-endpoint">
      <Stack gap="xs">
        <Title order={2} size="h5">
          {t('endpoint.title')}
        </Title>
        <Text size="sm">{t('endpoint.hint')}</Text>
        {e && (
          <Text size="sm" data-testid="endpoint-state" data-configured={String(e.configured)}>
            {e.configured
              ? t('endpoint.configured', { at: formatDate(e.updated_at, locale) })
              : t('endpoint.notConfigured')}
          </Text>
        )}
        <form
          aria-label={t('endpoint.title')}
          onSubmit={(event) => {
            event.preventDefault();
            put.mutate({ url });
          }}
        >
          <Group align="end" gap="xs">
            <TextInput
              size="xs"
              w={420}
              required
              type="url"
              label={t('endpoint.url')}
              value={url}
              onChange={(event) => setEdited(event.currentTarget.value)}
            />
            <Button
              size="xs"
              type="submit"
              loading={put.isPending && !put.variables?.rotate_secret}
            >
              {t('common.save')}
            </Button>
            {e?.configured && (
              <>
                <Button
                  size="xs"
                  variant="default"
                  loading={put.isPending && put.variables?.rotate_secret === true}
                  onClick={() => put.mutate({ url: stored, rotate_secret: true })}
                >
                  {t('endpoint.rotate')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setConfirmRemove(true)}>
                  {t('endpoint.remove')}
                </Button>
              </>
            )}
          </Group>
        </form>
        {secret && (
          <OneTimeSecret
            label={t('endpoint.title')}
            secret={secret}
            onDone={() => setSecret(undefined)}
          />
        )}
        <ErrorAlert error={endpoint.error ?? put.error} />
      </Stack>
      <Modal
        opened={confirmRemove}
        onClose={() => setConfirmRemove(false)}
        title={t('endpoint.removeTitle')}
      >
        <Stack gap="xs">
          <Text size="sm">{t('endpoint.removeText')}</Text>
          <ErrorAlert error={remove.error} />
          <Group justify="end">
            <Button size="xs" variant="default" onClick={() => setConfirmRemove(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              size="xs"
              color="red.9"
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            >
              {t('endpoint.remove')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
