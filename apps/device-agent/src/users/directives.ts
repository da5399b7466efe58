import { ApiError } from '../api/api-errors';
import type { IssuanceDirective } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { buildCsrPem } from '../crypto/csr';
import { loadOrCreateKey } from '../state/key-store';
import type { StateDir } from '../state/state-dir';
import { readIndex, slotDir, usersDir, writeIndex, type UserRequestRecord } from './user-index';

/**
 * Carries out the check-in's issuance directives (issuance-directives.md): for each one not
 * handled yet, a key and `POST /enroll/user` for the person, then the report (`done` with the
 * request id, or `failed` with the service's refusal). Each step is recorded before the next,
 * so a crash or an unreachable service repeats only what is missing, and no directive is
 * enrolled twice. Logged by the user half.
 */
export async function carryOutDirectives(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: { serial: string; enrollmentToken: string; machineSecret: string },
  directives: readonly IssuanceDirective[],
): Promise<void> {
  if (directives.length === 0) return;
  const users = usersDir(state);
  const index = readIndex(users);
  for (const directive of directives) {
    const record: UserRequestRecord = index[directive.id] ?? {
      directive_id: directive.id,
      purpose: directive.purpose,
      user: directive.user,
      upn: directive.upn,
    };
    if (record.reported) continue;
    try {
      if (!record.outcome) await enrollForUser(ctx, state, client, facts, record);
      index[directive.id] = record;
      writeIndex(users, index);
      await report(ctx, client, facts.machineSecret, record);
      writeIndex(users, index);
    } catch (error) {
      if (error instanceof AgentExit && error.code === ExitCode.unreachable) {
        ctx.userLogger.warn('directive not finished; the next pass goes on', {
          directive_id: directive.id,
          cause: error.message,
        });
        continue;
      }
      throw error;
    }
  }
}

export async function enrollForUser(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: { serial: string; enrollmentToken: string },
  record: UserRequestRecord,
): Promise<void> {
  const slot = slotDir(usersDir(state), record);
  const key = loadOrCreateKey(slot, 'key.pem');
  const csr = await buildCsrPem(record.user.slice(0, 64), key.publicKey, key.signer);
  try {
    const answer = await withRetry({ ...ctx, logger: ctx.userLogger }, 'user enrollment', () =>
      client.enrollUser({
        serial: facts.serial,
        enrollment_token: facts.enrollmentToken,
        csr,
        purpose: record.purpose,
        user: record.user,
        ...(record.upn ? { upn: record.upn } : {}),
        agent_version: AGENT_VERSION,
      }),
    );
    slot.write('agent-secret', answer.agent_secret);
    slot.write('request-id', answer.request_id);
    record.request_id = answer.request_id;
    record.outcome = 'done';
    record.message = `request ${answer.request_id} sent, awaiting approval`;
    ctx.userLogger.info('enrolled for a person', {
      directive_id: record.directive_id,
      purpose: record.purpose,
      user: record.user,
      request_id: answer.request_id,
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    record.outcome = 'failed';
    record.message = `${error.code}: ${error.message}`.slice(0, 1000);
    ctx.userLogger.warn('the service refused the enrollment for a person', {
      directive_id: record.directive_id,
      purpose: record.purpose,
      user: record.user,
      code: error.code,
    });
  }
}

async function report(
  ctx: AgentContext,
  client: CertsvcClient,
  secret: string,
  record: UserRequestRecord,
): Promise<void> {
  const outcome = record.outcome ?? 'failed';
  try {
    await withRetry({ ...ctx, logger: ctx.userLogger }, 'directive report', () =>
      client.reportDirective(record.directive_id, secret, outcome, record.message ?? ''),
    );
    record.reported = outcome;
    ctx.userLogger.info('directive reported', { directive_id: record.directive_id, outcome });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'issuance_directive_cancelled') {
      record.reported = 'cancelled';
      ctx.userLogger.info('directive cancelled by an administrator, dropped', {
        directive_id: record.directive_id,
      });
      return;
    }
    ctx.userLogger.warn('directive report refused; the next pass tries again', {
      directive_id: record.directive_id,
      code: error.code,
    });
  }
}
