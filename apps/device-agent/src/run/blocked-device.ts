import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { checkinOnce } from '../enroll/checkin';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';
import { renewIfDue, type RenewalFacts } from './renewal';
import { checkRevocation, revokedExit, type Revocation } from './revocation-check';

/** A blocked device's `run` loop waits this many intervals between passes. */
export const BLOCKED_PACE = 4;

/** `reason` while the replacement of a revoked certificate awaits approval. */
const REPLACING = 'replacing_revoked';

/** The pass ended in state `blocked`: `run --once` exits 3, the loop slows down. */
export class DeviceBlocked extends AgentExit {
  constructor(serial: string) {
    super(
      ExitCode.refused,
      `device ${serial} is blocked by an administrator (state blocked): no renewal until it is ` +
        `unblocked; \`run\` checks in every ${BLOCKED_PACE} intervals and requests a new ` +
        'certificate by itself once unblocked (docs/agent.md, "Blocked device")',
    );
  }
}

/**
 * After the pass's check-in: a check-in that says `blocked` puts the agent in state `blocked`;
 * a revoked certificate puts it in `revoked` — unless it is the one being replaced after an
 * unblock (its replacement awaits approval: the pass goes on to poll it).
 */
export function settleTrust(
  ctx: AgentContext,
  dir: StateDir,
  status: AgentStatus,
  revocation: Revocation,
  blocked: boolean | undefined,
): AgentStatus {
  if (blocked === true) {
    const now = ctx.clock.now();
    writeStatus(
      dir,
      {
        ...status,
        state: 'blocked',
        reason: 'device_blocked',
        blocked_since: status.blocked_since ?? now.toISOString(),
      },
      now,
    );
    ctx.logger.warn('the device is blocked; renewals stop until it is unblocked', {
      serial: status.serial,
      certificate_revoked: revocation.revoked,
    });
    throw new DeviceBlocked(status.serial);
  }
  if (!revocation.revoked) return status;
  if (status.reason === REPLACING && dir.has(StateFile.renewalRequestId)) {
    ctx.logger.info('certificate revoked; its replacement awaits approval', {
      certificate_serial: status.certificate_serial,
      renewal_request_id: status.renewal_request_id,
    });
    return status;
  }
  return revokedExit(ctx, dir, status, revocation.issuer);
}

/**
 * A pass in state `blocked`: only the check-in (no renewal, no directives). Still blocked:
 * `DeviceBlocked`. Unblocked: a fresh CRL; a certificate that is not revoked is simply
 * `enrolled` again, a revoked one is replaced — a new key and a new request with the stored
 * token, like a renewal (state `renewal_pending`, reason `replacing_revoked`), swapped in by a
 * later pass once an administrator approved it.
 */
export async function blockedPass(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
  secrets: { requestId: string; secret: string },
  facts: RenewalFacts,
): Promise<AgentStatus> {
  const checkin = await checkinOnce(ctx, dir, client, status, secrets.requestId, secrets.secret);
  if (checkin.blocked !== false) throw new DeviceBlocked(status.serial);
  const revocation = await checkRevocation(ctx, dir, client, checkin.status, { refresh: true });
  ctx.logger.info('the device is unblocked', {
    serial: status.serial,
    certificate_revoked: revocation.revoked,
  });
  const unblocked: AgentStatus = {
    ...checkin.status,
    state: 'enrolled',
    reason: undefined,
    blocked_since: undefined,
  };
  if (!revocation.revoked) return writeStatus(dir, unblocked, ctx.clock.now());
  // A renewal sent before the block is dropped: the replacement is a request of its own.
  for (const name of [
    StateFile.renewalKey,
    StateFile.renewalRequestId,
    StateFile.renewalAgentSecret,
    'tpm/renewal-key.pub',
    'tpm/renewal-key.priv',
  ]) {
    dir.remove(name);
  }
  const replacing = await renewIfDue(
    ctx,
    dir,
    client,
    { ...unblocked, renewal_request_id: undefined, reason: REPLACING },
    facts,
    true,
  );
  ctx.logger.info('replacement of the revoked certificate requested', {
    renewal_request_id: replacing.renewal_request_id,
  });
  return replacing;
}
