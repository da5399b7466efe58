import { join } from 'node:path';
import { ApiError } from '../api/api-errors';
import type { NetworkProfile, PurposesAnswer } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { withRetry } from '../core/retry';
import type { AgentStatus } from '../state/agent-status';
import { StateDir, StateFile } from '../state/state-dir';
import { networkManagerKeyfile, wpaSupplicantBlock, type ProfilePaths } from './supplicant-files';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The network profiles of `POST /enroll/purposes`, written (not applied) into
 * `<state>/networks/` for the OS's supplicant: `<id>.nmconnection` (NetworkManager keyfile),
 * `<id>.wpa.conf` (wpa_supplicant block) and `<id>-ca.pem` (the RADIUS server's CAs).
 * A profile is rewritten when its `updated_at` changes and removed when no longer listed.
 * Returns the answer (its `purposes` drive the purpose requests), null when not read.
 */
export async function syncNetworkProfiles(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
): Promise<PurposesAnswer | null> {
  const token = (state.read(StateFile.enrollmentToken) ?? '').trim();
  if (!token) return null;
  let answer: PurposesAnswer;
  try {
    answer = await withRetry(ctx, 'purposes', () => client.purposes(status.serial, token));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.logger.warn('network profiles not read', { code: error.code });
    return null;
  }
  const networks: NetworkProfile[] = answer.networks ?? [];
  const dir = new StateDir(join(state.path, 'networks'));
  dir.ensure();
  const written = JSON.parse(dir.read('index.json') ?? '{}') as Record<string, string>;
  const listed = new Set<string>();
  for (const profile of networks) {
    if (!UUID.test(profile.id)) continue;
    if (profile.purpose !== 'wifi') {
      // The machine certificate is the `wifi` purpose's; no other X.509 purpose reaches the
      // device's own key (docs/agent.md, "Network profiles").
      ctx.logger.warn('network profile for a purpose without a device certificate, skipped', {
        id: profile.id,
        purpose: profile.purpose,
      });
      continue;
    }
    listed.add(profile.id);
    if (written[profile.id] === profile.updated_at) continue;
    writeProfile(state, dir, status, profile);
    written[profile.id] = profile.updated_at;
    ctx.logger.info('network profile written', {
      id: profile.id,
      kind: profile.kind,
      name: profile.name,
    });
  }
  for (const id of Object.keys(written)) {
    if (listed.has(id)) continue;
    for (const suffix of ['.nmconnection', '.wpa.conf', '-ca.pem']) dir.remove(`${id}${suffix}`);
    delete written[id];
    ctx.logger.info('network profile removed', { id });
  }
  dir.write('index.json', `${JSON.stringify(written, null, 2)}\n`);
  return answer;
}

function writeProfile(
  state: StateDir,
  dir: StateDir,
  status: AgentStatus,
  profile: NetworkProfile,
) {
  if (profile.ca_chain_pem) dir.write(`${profile.id}-ca.pem`, profile.ca_chain_pem);
  else dir.remove(`${profile.id}-ca.pem`);
  const paths: ProfilePaths = {
    certificate: state.file(StateFile.certificate),
    privateKey: status.key_storage === 'tpm' ? null : state.file(StateFile.key),
    caCertificates: profile.ca_chain_pem
      ? dir.file(`${profile.id}-ca.pem`)
      : state.file(StateFile.caBundle),
    identity: status.serial,
  };
  dir.write(`${profile.id}.nmconnection`, networkManagerKeyfile(profile, paths));
  dir.write(`${profile.id}.wpa.conf`, wpaSupplicantBlock(profile, paths));
}
