import { ApiError } from '../api/api-errors';
import type { SshAgentCertificate } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { awaitCertificate } from '../enroll/await-certificate';
import { renewAfter } from '../state/agent-status';
import type { StateDir } from '../state/state-dir';
import {
  installSshCertificate,
  readSshRecord,
  sendSshRequest,
  sshDir,
  type SshCertificateRecord,
} from './ssh-install';

/**
 * The SSH half of a `run` pass (docs/agent.md, "SSH certificates"): the user certificate the
 * `ssh` command installed is renewed from `not_before + 2/3 (not_after - not_before)` (about
 * 16 h into the 24 h certificate, leaving 8 h for the approval): `POST /enroll/ssh` with the
 * same public key, then each pass looks at the request once and, when issued, replaces
 * `<key>-cert.pub` in place. A request the `ssh` command left pending is finished the same way.
 * A refusal is logged and tried again next pass; it never stops the machine's pass.
 */
export async function renewSshCertificate(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: { serial: string; enrollmentToken: string },
): Promise<'none' | 'requested' | 'pending' | 'installed' | 'ended' | 'current'> {
  if (!state.has('ssh/certificate.json') && !state.has('ssh/request-id')) return 'none';
  const dir = sshDir(state);
  const installed = readSshRecord(dir);
  const publicKeyFile =
    dir.read('public-key-file')?.trim() || installed?.public_key_file || pubFileOf(installed);
  if (!publicKeyFile) return 'none'; // a wait the `ssh` command still owns
  try {
    const requestId = (dir.read('request-id') ?? '').trim();
    const secret = (dir.read('agent-secret') ?? '').trim();
    if (requestId && secret)
      return await collect(ctx, dir, client, requestId, secret, publicKeyFile);
    if (!installed || !due(ctx, installed)) return 'current';
    const publicKey = dir.read('public-key.pub') ?? '';
    const sent = await sendSshRequest(ctx, dir, client, { ...facts, publicKey, publicKeyFile });
    ctx.logger.info('SSH certificate renewal requested', {
      request_id: sent.requestId,
      not_after: installed.not_after,
    });
    return 'requested';
  } catch (error) {
    if (
      error instanceof ApiError ||
      (error instanceof AgentExit && error.code === ExitCode.refused)
    ) {
      ctx.logger.warn('SSH certificate not renewed; the next pass tries again', {
        cause: error.message,
      });
      return 'pending';
    }
    throw error;
  }
}

async function collect(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  requestId: string,
  secret: string,
  publicKeyFile: string,
): Promise<'pending' | 'installed' | 'ended'> {
  const outcome = await awaitCertificate(ctx, client, requestId, secret, 1);
  if (outcome.kind === 'still_pending') {
    ctx.logger.info('SSH certificate renewal awaiting approval', { request_id: requestId });
    return 'pending';
  }
  if (outcome.kind === 'terminal') {
    dir.remove('request-id');
    ctx.logger.warn('SSH request ended without a certificate; a new one follows when due', {
      request_id: requestId,
      status: outcome.status,
    });
    return 'ended';
  }
  const certificate = outcome.body as unknown as SshAgentCertificate;
  const record = installSshCertificate(dir, certificate, publicKeyFile);
  ctx.logger.info('SSH certificate renewed', {
    file: record.file,
    request_id: requestId,
    ssh_serial: certificate.serial,
    not_after: certificate.not_after,
  });
  return 'installed';
}

function due(ctx: AgentContext, record: SshCertificateRecord): boolean {
  if (!record.not_before || !record.not_after) return false;
  return ctx.clock.now().getTime() >= Date.parse(renewAfter(record.not_before, record.not_after));
}

/** Records written before `public_key_file` was kept: the key is the certificate's neighbour. */
function pubFileOf(record: SshCertificateRecord | null): string | undefined {
  return record?.file ? record.file.replace(/-cert\.pub$/, '.pub') : undefined;
}
