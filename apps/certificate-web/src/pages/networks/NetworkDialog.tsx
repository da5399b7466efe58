import {
  Button,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { ErrorAlert } from '@platform/web-ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '../../i18n/i18n';
import { splitList } from '../ssh/ssh-api';
import { createNetwork, updateNetwork, type Network } from './networks-api';

/**
 * Create a Wi-Fi or wired network (`network` absent), or change what the routes allow on one:
 * the RADIUS server names and the two agent opt-outs (kind, name and SSID are fixed).
 */
export function NetworkDialog({ network, onClose }: { network?: Network; onClose(): void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'wifi' | 'wired'>(network?.kind ?? 'wifi');
  const [name, setName] = useState(network?.name ?? '');
  const [ssid, setSsid] = useState(network?.ssid ?? '');
  const [hidden, setHidden] = useState(network?.hidden ?? false);
  const [radius, setRadius] = useState((network?.radius_server_names ?? []).join(', '));
  const [agentOff, setAgentOff] = useState(network?.agent_profile_disabled ?? false);
  const [macosOff, setMacosOff] = useState(network?.macos_agent_profile_disabled ?? false);
  const save = useMutation({
    mutationFn: async () => {
      const names = splitList(radius);
      if (network) return updateNetwork(network, { radius: names, agentOff, macosOff });
      await createNetwork({
        kind,
        name: name.trim(),
        eap_method: 'eap-tls',
        hidden: kind === 'wifi' && hidden,
        ...(kind === 'wifi' ? { ssid } : {}),
        radius_server_names: names,
        agent_profile_disabled: agentOff,
        macos_agent_profile_disabled: macosOff,
      });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['networks'] });
      onClose();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Modal
      opened
      onClose={onClose}
      title={network ? t('networks.editTitle', { name: network.name }) : t('networks.createTitle')}
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      <form onSubmit={submit}>
        <Stack>
          {network ? (
            <Text size="sm">
              {t(`networks.kind.${network.kind}`)} · {network.name}
              {network.ssid ? ` · SSID ${network.ssid}` : ''}
            </Text>
          ) : (
            <>
              <SegmentedControl
                aria-label={t('networks.kindLabel')}
                value={kind}
                onChange={(v) => setKind(v as 'wifi' | 'wired')}
                data={[
                  { value: 'wifi', label: t('networks.kind.wifi') },
                  { value: 'wired', label: t('networks.kind.wired') },
                ]}
              />
              <TextInput
                label={t('networks.name')}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                required
                data-autofocus
              />
              {kind === 'wifi' && (
                <>
                  <TextInput
                    label={t('networks.ssid')}
                    value={ssid}
                    onChange={(e) => setSsid(e.currentTarget.value)}
                    required
                  />
                  <Checkbox
                    label={t('networks.hidden')}
                    checked={hidden}
                    onChange={(e) => setHidden(e.currentTarget.checked)}
                  />
                </>
              )}
            </>
          )}
          <TextInput
            label={t('networks.radius')}
            description={t('networks.radiusHint')}
            value={radius}
            onChange={(e) => setRadius(e.currentTarget.value)}
          />
          <Checkbox
            label={t('networks.agentOff')}
            checked={agentOff}
            onChange={(e) => setAgentOff(e.currentTarget.checked)}
          />
          <Checkbox
            label={t('networks.macosOff')}
            checked={macosOff}
            onChange={(e) => setMacosOff(e.currentTarget.checked)}
          />
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
