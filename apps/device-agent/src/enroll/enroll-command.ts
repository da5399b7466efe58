import { ApiError } from '../api/api-errors';
import { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode, type ExitCodeValue } from '../core/exit-codes';
import { checkClockSkew } from '../core/clock-skew';
import { checkinOnce } from './checkin';
import { readStatus, writeStatus, type AgentStatus } from '../state/agent-status';
import { installCertificate } from '../state/install-certificate';
import { StateFile, type StateDir } from '../state/state-dir';
import { awaitCertificate } from './await-certificate';
import { openDeviceKey, type TpmOptions } from './device-key';
import { sendEnrollment, type EnrollFacts } from './enroll-request';

export interface EnrollOptions extends EnrollFacts {
  readonly server: string;
  /** How long to wait for the approval; 0: until the request is decided. */
  readonly waitMs: number;
  /** `--tpm`: the key inside the TPM, with attestation evidence. */
  readonly tpm?: TpmOptions;
}

/** `enroll` (docs/agent.md): key, CSR, enrollment, approval, certificate, check-in. */
export async function enrollCommand(
  ctx: AgentContext,
  dir: StateDir,
  options: EnrollOptions,
): Promise<ExitCodeValue> {
  dir.ensure();
  const now = () => ctx.clock.now();
  const known = readStatus(dir);
  if (known && known.serial !== options.serial) {
    throw new AgentExit(
      ExitCode.state,
      `${dir.path} belongs to serial ${known.serial}; use another --state-dir for ${options.serial}`,
    );
  }
  if (known?.state === 'enrolled' || known?.state === 'renewal_pending') {
    ctx.logger.info('already enrolled; `run` keeps the certificate fresh', {
      serial: known.serial,
      request_id: known.request_id,
    });
    return ExitCode.ok;
  }
  const client = new CertsvcClient(options.server);
  if (isPlainRemote(options.server)) {
    ctx.logger.warn(
      'plain http to a remote service: the agent secret and token travel unencrypted',
      {
        server: options.server,
      },
    );
  }
  let status: AgentStatus = known ?? {
    state: 'key_generated',
    server: options.server,
    serial: options.serial,
    updated_at: now().toISOString(),
  };
  status = { ...status, server: options.server };
  if (
    known?.state === 'unauthorized' ||
    known?.state === 'no_certificate' ||
    known?.state === 'revoked' ||
    known?.state === 'blocked'
  ) {
    // The old request is of no use any more: a new one (stored token) replaces it.
    dir.remove(StateFile.requestId);
    dir.remove(StateFile.agentSecret);
    if (known.state === 'revoked' || known.state === 'blocked') {
      // A revoked certificate's key is not used again: the new request gets a new key.
      dir.remove(StateFile.key);
      dir.remove('tpm/key.pub');
      dir.remove('tpm/key.priv');
    }
  }
  let requestId = dir.read(StateFile.requestId);
  let secret = dir.read(StateFile.agentSecret);
  if (!requestId || !secret) {
    const storage = options.tpm ? 'tpm' : (known?.key_storage ?? 'software');
    const { key, tpm, trust } = await openDeviceKey(ctx, dir, storage, 'key', options.tpm);
    ctx.logger.info(key.reused ? 'reusing the key of an earlier attempt' : 'key generated', {
      serial: options.serial,
      key: storage === 'tpm' ? 'TPM EC P-256' : 'software EC P-256',
    });
    status = writeStatus(dir, { ...status, state: 'key_generated', key_storage: storage }, now());
    const enrollmentToken =
      options.enrollmentToken ?? dir.read(StateFile.enrollmentToken) ?? undefined;
    const facts = { ...options, enrollmentToken };
    const answer = await sendEnrollment(ctx, client, key, facts, tpm, trust);
    if (answer.enrollment_token) dir.write(StateFile.enrollmentToken, answer.enrollment_token);
    else if (options.enrollmentToken) dir.write(StateFile.enrollmentToken, options.enrollmentToken);
    dir.write(StateFile.agentSecret, answer.agent_secret);
    dir.write(StateFile.requestId, answer.request_id);
    requestId = answer.request_id;
    secret = answer.agent_secret;
    checkClockSkew(ctx, client);
    status = writeStatus(
      dir,
      { ...status, state: 'pending_approval', request_id: requestId, request_status: 'pending' },
      now(),
    );
    ctx.logger.info('enrolled, waiting for approval', {
      serial: options.serial,
      request_id: requestId,
    });
  } else {
    ctx.logger.info('resuming: waiting for the decision', { request_id: requestId });
  }
  return finish(ctx, dir, client, status, requestId, secret, options.waitMs);
}

async function finish(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
  requestId: string,
  secret: string,
  waitMs: number,
): Promise<ExitCodeValue> {
  const now = () => ctx.clock.now();
  let outcome;
  try {
    outcome = await awaitCertificate(ctx, client, requestId, secret, waitMs);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'agent_unauthorized') {
      writeStatus(dir, { ...status, state: 'unauthorized', reason: error.code }, now());
      dir.remove(StateFile.requestId);
      dir.remove(StateFile.agentSecret);
    }
    throw error;
  }
  switch (outcome.kind) {
    case 'still_pending':
      writeStatus(dir, { ...status, request_status: outcome.status }, now());
      throw new AgentExit(
        ExitCode.pending,
        `request ${requestId} is still ${outcome.status}; run \`enroll\` again to keep waiting`,
      );
    case 'terminal':
      // A new `enroll` sends a new request (same key, the stored enrollment token).
      dir.remove(StateFile.requestId);
      dir.remove(StateFile.agentSecret);
      writeStatus(
        dir,
        { ...status, state: 'rejected', request_status: outcome.status, reason: outcome.status },
        now(),
      );
      throw new AgentExit(
        ExitCode.refused,
        `request ${requestId} ended ${outcome.status} without a certificate; \`enroll\` again sends a new request`,
      );
    case 'issued': {
      const installed = installCertificate(dir, status, outcome, now());
      ctx.logger.info('certificate installed', {
        certificate_serial: installed.certificate_serial,
        not_after: installed.not_after,
        renew_after: installed.renew_after,
      });
      await checkinOnce(ctx, dir, client, installed, requestId, secret);
      return ExitCode.ok;
    }
  }
}

/** `http://` to anything but loopback. */
function isPlainRemote(server: string): boolean {
  const url = new URL(server);
  return url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
