import { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode, type ExitCodeValue } from '../core/exit-codes';
import { checkinOnce } from '../enroll/checkin';
import { readStatus, type AgentStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';
import { agentRefusal, refreshBundle } from './refresh-bundle';
import { renewIfDue, type RenewalFacts } from './renewal';
import { checkRevocation } from './revocation-check';
import { BLOCKED_PACE, blockedPass, DeviceBlocked, settleTrust } from './blocked-device';
import { carryOutDirectives } from '../users/directives';
import { collectUserCertificates } from '../users/user-certificates';
import { syncNetworkProfiles } from '../networks/network-profiles';
import { uploadLogSnapshot } from '../logs-upload/log-snapshot';
import { checkClockSkew } from '../core/clock-skew';
import { finishInterruptedSwap } from './renewal-swap';
import { credentialsPass } from '../purposes/credentials-pass';

export interface RunOptions extends RenewalFacts {
  readonly once: boolean;
  /** Between passes (jittered by up to +-10 %). */
  readonly intervalMs: number;
  /** `--sshd-krl PATH`: the KRL written for sshd's `RevokedKeys` each pass. */
  readonly sshdKrl?: string;
}

/** `run`: one pass, or passes every interval until stopped (docs/agent.md, "run"). */
export async function runCommand(
  ctx: AgentContext,
  dir: StateDir,
  options: RunOptions,
): Promise<ExitCodeValue> {
  dir.ensure();
  for (;;) {
    let pace = 1;
    try {
      await runPass(ctx, dir, options);
      if (options.once) return ExitCode.ok;
    } catch (error) {
      // The loop outlives an unreachable service and a block; --once reports them.
      if (!options.once && error instanceof DeviceBlocked) {
        pace = BLOCKED_PACE;
        ctx.logger.warn('device blocked, next pass at a slower pace', { intervals: pace });
      } else if (
        options.once ||
        !(error instanceof AgentExit) ||
        error.code !== ExitCode.unreachable
      ) {
        throw error;
      } else {
        ctx.logger.warn('pass failed, next pass at the interval', { cause: error.message });
      }
    }
    const jitter = 1 + (ctx.random() - 0.5) / 5;
    await ctx.clock.sleep(Math.round(options.intervalMs * pace * jitter));
  }
}

export async function runPass(
  ctx: AgentContext,
  dir: StateDir,
  facts: RenewalFacts & { readonly sshdKrl?: string },
): Promise<AgentStatus> {
  let status = enrolledStatus(dir);
  const client = new CertsvcClient(status.server);
  status = finishInterruptedSwap(dir, status, ctx.clock.now());
  const requestId = (dir.read(StateFile.requestId) ?? '').trim();
  const secret = (dir.read(StateFile.agentSecret) ?? '').trim();
  if (status.state === 'blocked') {
    return blockedPass(ctx, dir, client, status, { requestId, secret }, facts);
  }
  status = await refreshBundle(ctx, dir, client, status, requestId, secret);
  const revocation = await checkRevocation(ctx, dir, client, status);
  checkClockSkew(ctx, client);
  const checkin = await checkinOnce(ctx, dir, client, status, requestId, secret);
  status = settleTrust(ctx, dir, checkin.status, revocation, checkin.blocked);
  if (checkin.uploadLogs) await uploadLogSnapshot(ctx, dir, client, requestId, secret);
  const enrollmentToken = (dir.read(StateFile.enrollmentToken) ?? '').trim();
  await carryOutDirectives(
    ctx,
    dir,
    client,
    { serial: status.serial, enrollmentToken, machineSecret: secret },
    checkin.directives,
  );
  await collectUserCertificates(ctx, dir, client);
  const purposes = await syncNetworkProfiles(ctx, dir, client, status);
  await credentialsPass(
    ctx,
    dir,
    client,
    { server: status.server, serial: status.serial, enrollmentToken, sshdKrl: facts.sshdKrl },
    purposes,
  );
  try {
    status = await renewIfDue(ctx, dir, client, status, facts);
  } catch (error) {
    throw agentRefusal(ctx, dir, status, error);
  }
  if (status.request_id && status.request_id !== requestId) {
    // Renewed: the new request's certificate is installed; tell the service.
    const renewedSecret = (dir.read(StateFile.agentSecret) ?? '').trim();
    status = (await checkinOnce(ctx, dir, client, status, status.request_id, renewedSecret)).status;
  }
  return status;
}

function enrolledStatus(dir: StateDir): AgentStatus {
  const status = readStatus(dir);
  if (!status || !dir.has(StateFile.certificate) || !dir.has(StateFile.requestId)) {
    throw new AgentExit(
      ExitCode.state,
      `no certificate in ${dir.path}: run \`enroll\` first (state ${status?.state ?? 'none'})`,
    );
  }
  if (
    status.state === 'unauthorized' ||
    status.state === 'no_certificate' ||
    status.state === 'rejected' ||
    status.state === 'revoked'
  ) {
    throw new AgentExit(
      ExitCode.refused,
      `state ${status.state} (${status.reason ?? 'no reason'}): enroll again (docs/agent.md, "States")`,
    );
  }
  return status;
}
