import { ApiError } from '../api/api-errors';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import type { StateDir } from '../state/state-dir';
import { readIndex, slotDir, usersDir, writeIndex } from './user-index';

/**
 * The user half's pass: every person's request still without a certificate is looked at once;
 * an issued one is downloaded into its slot (`certificate.pem`, `ca-bundle.pem`, 0600) and
 * checked in. Renewal is `renewUserCertificates` (user-renewal.ts).
 */
export async function collectUserCertificates(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
): Promise<void> {
  if (!state.has('users/index.json')) return;
  const users = usersDir(state);
  const index = readIndex(users);
  const log = { ...ctx, logger: ctx.userLogger };
  for (const record of Object.values(index)) {
    if (!record.request_id || record.certificate_serial || isFinished(record.request_status)) {
      continue;
    }
    const slot = slotDir(users, record);
    const secret = (slot.read('agent-secret') ?? '').trim();
    try {
      const status = await withRetry(log, 'user request status', () =>
        client.status(record.request_id as string, secret),
      );
      record.request_status = status.status;
      if (status.status === 'issued') {
        const delivered = await withRetry(log, 'user certificate', () =>
          client.certificate(record.request_id as string, secret),
        );
        if (delivered) {
          slot.write('ca-bundle.pem', delivered.body.ca_bundle_pem);
          slot.write('certificate.pem', delivered.body.certificate_pem);
          record.certificate_serial = delivered.body.serial;
          record.not_before = delivered.body.not_before;
          record.not_after = delivered.body.not_after;
          await client.checkin(record.request_id, secret, AGENT_VERSION).catch(() => undefined);
          ctx.userLogger.info('user certificate installed', {
            purpose: record.purpose,
            user: record.user,
            certificate_serial: delivered.body.serial,
          });
        }
      } else if (status.terminal) {
        ctx.userLogger.warn('request for a person ended without a certificate', {
          purpose: record.purpose,
          user: record.user,
          status: status.status,
        });
      }
    } catch (error) {
      if (
        error instanceof ApiError ||
        (error instanceof AgentExit && error.code === ExitCode.unreachable)
      ) {
        ctx.userLogger.warn('user request not checked; the next pass tries again', {
          request_id: record.request_id,
          cause: error.message,
        });
        continue;
      }
      throw error;
    }
  }
  writeIndex(users, index);
}

function isFinished(status: string | undefined): boolean {
  return status !== undefined && ['rejected', 'failed', 'superseded', 'cancelled'].includes(status);
}
