import { ApiError } from '../api/api-errors';
import type { IssuanceDirective } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import type { StateDir } from '../state/state-dir';

/**
 * `checkin` on the installed request; a failure is logged (the next `run` pass checks in
 * again). Returns the open issuance directives the answer carried (none after a failure) and
 * whether the device is blocked (undefined after a failure: not known).
 */
export async function checkinOnce(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
  requestId: string,
  secret: string,
): Promise<{
  status: AgentStatus;
  directives: IssuanceDirective[];
  uploadLogs: boolean;
  blocked?: boolean;
}> {
  try {
    const answer = await withRetry(ctx, 'check-in', () =>
      client.checkin(requestId, secret, AGENT_VERSION),
    );
    ctx.logger.info('checked in', {
      request_id: requestId,
      issuance_directives: answer.issuance_directives.length,
    });
    const next = writeStatus(
      dir,
      { ...status, last_checkin_at: answer.installed_at },
      ctx.clock.now(),
    );
    return {
      status: next,
      directives: answer.issuance_directives,
      uploadLogs: answer.upload_logs === true,
      blocked: answer.blocked === true,
    };
  } catch (error) {
    if (error instanceof ApiError || error instanceof AgentExit) {
      ctx.logger.warn('check-in failed; the next `run` pass retries', { cause: error.message });
      return { status, directives: [], uploadLogs: false };
    }
    throw error;
  }
}
