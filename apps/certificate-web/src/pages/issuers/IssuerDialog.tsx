import {
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import { lookUp } from '../../i18n/look-up';
import {
  ISSUER_KINDS,
  putIssuer,
  setting,
  type IssuerInput,
  type IssuerKind,
  type IssuerProfile,
} from './issuers-api';

const pem = { input: { fontFamily: 'monospace' } };

/**
 * The whole profile of one purpose (PUT replaces it): kind and that kind's fields. Secrets are
 * write-only: an empty secret field keeps the stored one (same kind).
 */
export function IssuerDialog({ profile, onClose }: { profile: IssuerProfile; onClose(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<IssuerKind>(profile.kind);
  const [v, setV] = useState<Record<string, string>>({
    url: setting(profile, 'url'),
    label: setting(profile, 'label'),
    auth_mode: setting(profile, 'auth_mode') || 'basic',
    username: setting(profile, 'username'),
    trust_anchor_pem: setting(profile, 'trust_anchor_pem'),
    client_certificate_pem: setting(profile, 'client_certificate_pem'),
    ca_fingerprint: setting(profile, 'ca_fingerprint'),
  });
  const field = (name: string) => ({
    value: v[name] ?? '',
    onChange: (e: { currentTarget: { value: string } }) =>
      setV({ ...v, [name]: e.currentTarget.value }),
  });
  const save = useMutation({
    mutationFn: () => {
      const pick = (names: string[]) =>
        Object.fromEntries(names.filter((n) => v[n]?.trim()).map((n) => [n, v[n]?.trim()]));
      const body: IssuerInput =
        kind === 'built_in'
          ? { kind }
          : kind === 'scep'
            ? { kind, ...pick(['url', 'ca_fingerprint', 'challenge_password']) }
            : {
                kind,
                ...pick(['url', 'label', 'auth_mode', 'trust_anchor_pem']),
                ...(v.auth_mode === 'basic'
                  ? pick(['username', 'password'])
                  : pick(['client_certificate_pem', 'client_key_pem'])),
              };
      return putIssuer(profile.purpose, body);
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['issuers'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const keepHint = t('issuers.secretKeepHint');
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t('issuers.editTitle', { purpose: lookUp(t, 'purpose', profile.purpose) })}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          <Select
            label={t('issuers.kind')}
            data={ISSUER_KINDS.map((k) => ({ value: k, label: lookUp(t, 'issuers.kindName', k) }))}
            value={kind}
            onChange={(k) => setKind((k ?? 'built_in') as IssuerKind)}
            allowDeselect={false}
          />
          {kind !== 'built_in' && <TextInput label={t('issuers.url')} required {...field('url')} />}
          {kind === 'scep' && (
            <>
              <TextInput label={t('issuers.caFingerprint')} required {...field('ca_fingerprint')} />
              <PasswordInput
                label={t('issuers.challengePassword')}
                description={keepHint}
                autoComplete="new-password"
                {...field('challenge_password')}
              />
            </>
          )}
          {kind === 'est' && (
            <>
              <TextInput label={t('issuers.label')} {...field('label')} />
              <Select
                label={t('issuers.authMode')}
                data={[
                  { value: 'basic', label: t('issuers.authBasic') },
                  { value: 'client_certificate', label: t('issuers.authCertificate') },
                ]}
                value={v.auth_mode ?? 'basic'}
                onChange={(m) => setV({ ...v, auth_mode: m ?? 'basic' })}
                allowDeselect={false}
              />
              {v.auth_mode === 'basic' ? (
                <>
                  <TextInput label={t('issuers.username')} required {...field('username')} />
                  <PasswordInput
                    label={t('issuers.password')}
                    description={keepHint}
                    autoComplete="new-password"
                    {...field('password')}
                  />
                </>
              ) : (
                <>
                  <Textarea
                    label={t('issuers.clientCertificate')}
                    autosize
                    minRows={3}
                    styles={pem}
                    {...field('client_certificate_pem')}
                  />
                  <Textarea
                    label={t('issuers.clientKey')}
                    description={keepHint}
                    autosize
                    minRows={3}
                    styles={pem}
                    {...field('client_key_pem')}
                  />
                </>
              )}
              <Textarea
                label={t('issuers.trustAnchor')}
                description={t('issuers.trustAnchorHint')}
                autosize
                minRows={3}
                styles={pem}
                {...field('trust_anchor_pem')}
              />
            </>
          )}
          <ErrorAlert error={save.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('infra.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
