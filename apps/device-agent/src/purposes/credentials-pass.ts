import type { PurposesAnswer } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { refreshSshdKrl } from '../ssh/sshd-krl';
import { renewSshCertificate } from '../ssh/ssh-renewal';
import type { StateDir } from '../state/state-dir';
import { renewUserCertificates } from '../users/user-renewal';
import { pursuePurposes } from './purpose-pass';

export interface CredentialsFacts {
  readonly server: string;
  readonly serial: string;
  readonly enrollmentToken: string;
  /** `run --sshd-krl PATH`: where sshd reads its `RevokedKeys`. */
  readonly sshdKrl?: string;
}

/**
 * The part of a `run` pass beyond the machine certificate (docs/agent.md): the people's
 * certificates renewed, the SSH certificate renewed (or a pending SSH request collected), the
 * purposes the device asked for acted on, and the KRL written for sshd. Runs after the network
 * profiles so it reuses their `POST /enroll/purposes` answer (`purposes`; null when unread).
 */
export async function credentialsPass(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  facts: CredentialsFacts,
  purposes: PurposesAnswer | null,
): Promise<void> {
  if (facts.enrollmentToken) {
    await renewUserCertificates(ctx, dir, client, facts);
    await renewSshCertificate(ctx, dir, client, facts);
    if (purposes) await pursuePurposes(ctx, dir, client, facts, purposes.purposes);
  }
  if (facts.sshdKrl) await refreshSshdKrl(ctx, dir, facts.server, facts.sshdKrl);
}
