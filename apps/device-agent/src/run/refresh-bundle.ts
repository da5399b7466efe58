import { ApiError } from '../api/api-errors';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import { installCertificate } from '../state/install-certificate';
import { StateFile, type StateDir } from '../state/state-dir';

/**
 * `bundle-version`, and when it differs from the stored one the certificate with
 * `If-None-Match` (a 304 keeps the files). 401 and 404 end in the documented states.
 */
export async function refreshBundle(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
  requestId: string,
  secret: string,
): Promise<AgentStatus> {
  try {
    const version = await withRetry(ctx, 'bundle version', () =>
      client.bundleVersion(requestId, secret),
    );
    if (version === status.bundle_version) {
      ctx.logger.debug('bundle unchanged', { bundle_version: version });
      return status;
    }
    const delivered = await withRetry(ctx, 'certificate download', () =>
      client.certificate(requestId, secret, status.etag),
    );
    if (!delivered) return status;
    ctx.logger.info('certificate bundle changed, installed', {
      bundle_version: delivered.body.bundle_version,
      certificate_serial: delivered.body.serial,
    });
    return installCertificate(dir, status, delivered, ctx.clock.now());
  } catch (error) {
    throw agentRefusal(ctx, dir, status, error);
  }
}

/** 401 -> `unauthorized`, 404 -> `no_certificate` (written), then an exit 3; others unchanged. */
export function agentRefusal(
  ctx: AgentContext,
  dir: StateDir,
  status: AgentStatus,
  error: unknown,
): unknown {
  if (!(error instanceof ApiError)) return error;
  const state =
    error.status === 401 ? 'unauthorized' : error.status === 404 ? 'no_certificate' : null;
  if (!state)
    return new AgentExit(ExitCode.refused, `the service refused: ${error.status} ${error.code}`);
  writeStatus(dir, { ...status, state, reason: error.code }, ctx.clock.now());
  const hint =
    state === 'unauthorized'
      ? 'the agent secret is no longer accepted'
      : 'the request has no certificate any more';
  return new AgentExit(
    ExitCode.refused,
    `${hint} (${error.code}); state ${state}: enroll again (docs/agent.md, "States"); files in ${dir.path} kept`,
  );
}

export { StateFile };
