import { X509Certificate } from 'node:crypto';
import { ApiError } from '../api/api-errors';
import type { AgentCertificate } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { buildCsrPem } from '../crypto/csr';
import { awaitCertificate } from '../enroll/await-certificate';
import { renewAfter } from '../state/agent-status';
import { loadOrCreateKey } from '../state/key-store';
import type { StateDir } from '../state/state-dir';
import { readIndex, slotDir, usersDir, writeIndex, type UserRequestRecord } from './user-index';

/** The files of a person's renewal in progress, in the slot beside the current ones. */
const RENEWAL = {
  key: 'renewal-key.pem',
  requestId: 'renewal-request-id',
  secret: 'renewal-agent-secret',
  certificate: 'renewal-certificate.pem',
  caBundle: 'renewal-ca-bundle.pem',
} as const;

/**
 * Renewal of the people's certificates (docs/agent.md, "Renewal of the people's
 * certificates"), the machine certificate's rule per slot: from `not_before + 2/3 (not_after -
 * not_before)` a new key (`renewal-key.pem`) and `POST /enroll/user` for the same purpose,
 * person and UPN; the current certificate stays in use until the new request is issued, then
 * the slot's files are swapped, certificate last (`renewal-certificate.pem` is the journal: a
 * crash in the middle is finished by the next pass), and the new request is checked in.
 * Refusals and an unreachable service are logged and left to the next pass.
 */
export async function renewUserCertificates(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: { serial: string; enrollmentToken: string },
): Promise<void> {
  if (!state.has('users/index.json')) return;
  const users = usersDir(state);
  const index = readIndex(users);
  const log = { ...ctx, logger: ctx.userLogger };
  for (const record of Object.values(index)) {
    if (!record.certificate_serial) continue;
    const slot = slotDir(users, record);
    try {
      if (slot.has(RENEWAL.certificate)) {
        // A swap a crash interrupted: finished from the files, then the new request checked in.
        swap(ctx, slot, record, null);
        const secret = (slot.read('agent-secret') ?? '').trim();
        await client
          .checkin(record.request_id as string, secret, AGENT_VERSION)
          .catch(() => undefined);
      } else {
        const renewalId = (slot.read(RENEWAL.requestId) ?? '').trim();
        const renewalSecret = (slot.read(RENEWAL.secret) ?? '').trim();
        if (renewalId && renewalSecret) {
          await collect(log, slot, client, record, renewalId, renewalSecret);
        } else if (due(ctx, slot, record)) {
          await request(log, slot, client, facts, record);
        }
      }
    } catch (error) {
      if (
        error instanceof ApiError ||
        (error instanceof AgentExit && error.code === ExitCode.unreachable)
      ) {
        ctx.userLogger.warn('user certificate not renewed; the next pass tries again', {
          purpose: record.purpose,
          user: record.user,
          cause: error.message,
        });
      } else {
        throw error;
      }
    }
    writeIndex(users, index);
  }
}

function due(ctx: AgentContext, slot: StateDir, record: UserRequestRecord): boolean {
  if (!record.not_before || !record.not_after) {
    // Installed before the dates were kept: read them from the certificate.
    const pem = slot.read('certificate.pem');
    if (!pem) return false;
    const certificate = new X509Certificate(pem);
    record.not_before = new Date(certificate.validFrom).toISOString();
    record.not_after = new Date(certificate.validTo).toISOString();
  }
  return ctx.clock.now().getTime() >= Date.parse(renewAfter(record.not_before, record.not_after));
}

async function request(
  ctx: AgentContext,
  slot: StateDir,
  client: CertsvcClient,
  facts: { serial: string; enrollmentToken: string },
  record: UserRequestRecord,
): Promise<void> {
  const key = loadOrCreateKey(slot, RENEWAL.key);
  const csr = await buildCsrPem(record.user.slice(0, 64), key.publicKey, key.signer);
  const answer = await withRetry(ctx, 'user certificate renewal', () =>
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
  slot.write(RENEWAL.secret, answer.agent_secret);
  slot.write(RENEWAL.requestId, answer.request_id);
  record.renewal_request_id = answer.request_id;
  ctx.logger.info('user certificate renewal requested', {
    purpose: record.purpose,
    user: record.user,
    renewal_request_id: answer.request_id,
    not_after: record.not_after,
  });
}

async function collect(
  ctx: AgentContext,
  slot: StateDir,
  client: CertsvcClient,
  record: UserRequestRecord,
  renewalId: string,
  renewalSecret: string,
): Promise<void> {
  const outcome = await awaitCertificate(ctx, client, renewalId, renewalSecret, 1);
  if (outcome.kind === 'still_pending') {
    ctx.logger.info('user certificate renewal awaiting approval', {
      purpose: record.purpose,
      user: record.user,
      renewal_request_id: renewalId,
    });
    return;
  }
  if (outcome.kind === 'terminal') {
    for (const name of [RENEWAL.requestId, RENEWAL.secret]) slot.remove(name);
    record.renewal_request_id = undefined;
    ctx.logger.warn('user certificate renewal ended without a certificate; a new one follows', {
      purpose: record.purpose,
      user: record.user,
      status: outcome.status,
    });
    return;
  }
  slot.write(RENEWAL.caBundle, outcome.body.ca_bundle_pem);
  slot.write(RENEWAL.certificate, outcome.body.certificate_pem);
  swap(ctx, slot, record, outcome.body);
  await client.checkin(renewalId, renewalSecret, AGENT_VERSION).catch(() => undefined);
}

/** Moves the renewal files over the current ones, certificate last; records the new facts. */
function swap(
  ctx: AgentContext,
  slot: StateDir,
  record: UserRequestRecord,
  delivered: AgentCertificate | null,
): void {
  slot.promote(RENEWAL.key, 'key.pem');
  slot.promote(RENEWAL.caBundle, 'ca-bundle.pem');
  slot.promote(RENEWAL.secret, 'agent-secret');
  slot.promote(RENEWAL.requestId, 'request-id');
  slot.promote(RENEWAL.certificate, 'certificate.pem');
  const certificate = new X509Certificate(slot.read('certificate.pem') ?? '');
  record.request_id = (slot.read('request-id') ?? '').trim();
  record.request_status = 'issued';
  record.certificate_serial = delivered?.serial ?? certificate.serialNumber.toLowerCase();
  record.not_before = delivered?.not_before ?? new Date(certificate.validFrom).toISOString();
  record.not_after = delivered?.not_after ?? new Date(certificate.validTo).toISOString();
  record.renewal_request_id = undefined;
  ctx.userLogger.info('renewed user certificate installed', {
    purpose: record.purpose,
    user: record.user,
    certificate_serial: record.certificate_serial,
    not_after: record.not_after,
  });
}
