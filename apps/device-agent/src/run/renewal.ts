import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { awaitCertificate } from '../enroll/await-certificate';
import { openDeviceKey, type TpmOptions } from '../enroll/device-key';
import { sendEnrollment } from '../enroll/enroll-request';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';
import { swapRenewal } from './renewal-swap';

export interface RenewalFacts {
  readonly platform: string;
  readonly hostname: string;
  /** For a device whose key is in the TPM (`key_storage: tpm`). */
  readonly tpm?: TpmOptions;
}

/**
 * Renewal (docs/agent.md, "Renewal"): from `renew_after` (2/3 of the lifetime) the agent makes a
 * new key and sends a new request with its enrollment token; the current certificate stays in
 * place until the new one is issued, then both are swapped.
 */
export async function renewIfDue(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
  facts: RenewalFacts,
  /** Renew now whatever `renew_after` says: a revoked certificate's replacement (unblocked). */
  force = false,
): Promise<AgentStatus> {
  const now = () => ctx.clock.now();
  const renewalId = dir.read(StateFile.renewalRequestId);
  const renewalSecret = dir.read(StateFile.renewalAgentSecret);
  if (renewalId && renewalSecret) {
    const outcome = await awaitCertificate(ctx, client, renewalId, renewalSecret, 1);
    if (outcome.kind === 'still_pending') {
      ctx.logger.info('renewal awaiting approval', { renewal_request_id: renewalId });
      return status;
    }
    if (outcome.kind === 'terminal') {
      ctx.logger.warn('renewal request ended without a certificate; a new one follows', {
        renewal_request_id: renewalId,
        status: outcome.status,
      });
      dir.remove(StateFile.renewalRequestId);
      dir.remove(StateFile.renewalAgentSecret);
      return writeStatus(
        dir,
        { ...status, state: 'enrolled', renewal_request_id: undefined },
        now(),
      );
    }
    dir.write(StateFile.renewalCaBundle, outcome.body.ca_bundle_pem);
    dir.write(StateFile.renewalCertificate, outcome.body.certificate_pem);
    const renewed = swapRenewal(dir, status, now(), outcome);
    ctx.logger.info('renewed certificate installed', {
      certificate_serial: renewed.certificate_serial,
      not_after: renewed.not_after,
    });
    return renewed;
  }
  const due = status.renew_after && now().getTime() >= Date.parse(status.renew_after);
  if (!due && !force) return status;
  // No stored token (lost): the enrollment is refused and the token recovered with the
  // continuity key or the AK (docs/agent.md, "Continuity key and token recovery").
  const token = dir.read(StateFile.enrollmentToken) ?? '';
  const storage = status.key_storage ?? 'software';
  const { key, tpm, trust } = await openDeviceKey(ctx, dir, storage, 'renewal-key', facts.tpm);
  const answer = await sendEnrollment(
    ctx,
    client,
    key,
    {
      serial: status.serial,
      enrollmentToken: token.trim() || undefined,
      platform: facts.platform,
      hostname: facts.hostname,
    },
    tpm,
    trust,
  );
  dir.write(StateFile.renewalAgentSecret, answer.agent_secret);
  dir.write(StateFile.renewalRequestId, answer.request_id);
  ctx.logger.info('renewal requested', {
    renewal_request_id: answer.request_id,
    not_after: status.not_after,
  });
  return writeStatus(
    dir,
    { ...status, state: 'renewal_pending', renewal_request_id: answer.request_id },
    now(),
  );
}
