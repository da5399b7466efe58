import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SshAgentCertificate } from '../api/api-types';
import { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode, type ExitCodeValue } from '../core/exit-codes';
import { awaitCertificate } from '../enroll/await-certificate';
import { readStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';
import { installSshCertificate, sendSshRequest, sshDir } from './ssh-install';

export interface SshOptions {
  /** The OpenSSH public key file (`id_ed25519.pub`); the certificate goes beside it. */
  readonly publicKeyFile: string;
  readonly waitMs: number;
}

/**
 * `ssh` (docs/agent.md, "SSH certificates"): `POST /enroll/ssh` with the public key, the wait for
 * the approval, then `<key>-cert.pub` beside the key (OpenSSH loads it with the key) and the
 * user CA line for the servers' `TrustedUserCAKeys` in `<state>/ssh/trusted-user-ca.pub`.
 * Only the public key is read and sent.
 */
export async function sshCommand(
  ctx: AgentContext,
  state: StateDir,
  options: SshOptions,
): Promise<ExitCodeValue> {
  const status = readStatus(state);
  const token = (state.read(StateFile.enrollmentToken) ?? '').trim();
  if (!status || !token) {
    throw new AgentExit(ExitCode.state, `no enrollment in ${state.path}: run \`enroll\` first`);
  }
  const publicKeyFile = resolve(options.publicKeyFile);
  const publicKey = readPublicKey(publicKeyFile);
  const dir = sshDir(state);
  const client = new CertsvcClient(status.server);
  let requestId = dir.read('request-id');
  let secret = dir.read('agent-secret');
  if (
    !requestId ||
    !secret ||
    dir.read('public-key.pub') !== publicKey ||
    (dir.read('public-key-file') ?? publicKeyFile).trim() !== publicKeyFile
  ) {
    ({ requestId, secret } = await sendSshRequest(ctx, dir, client, {
      serial: status.serial,
      enrollmentToken: token,
      publicKey,
      publicKeyFile,
    }));
    ctx.logger.info('SSH key sent, waiting for approval', { request_id: requestId });
  }
  const outcome = await awaitCertificate(ctx, client, requestId, secret, options.waitMs);
  if (outcome.kind === 'still_pending') {
    throw new AgentExit(ExitCode.pending, `SSH request ${requestId} is still ${outcome.status}`);
  }
  if (outcome.kind === 'terminal') {
    dir.remove('request-id');
    throw new AgentExit(ExitCode.refused, `SSH request ${requestId} ended ${outcome.status}`);
  }
  const certificate = outcome.body as unknown as SshAgentCertificate;
  // Done with this request: the next `ssh` asks for a new certificate.
  const record = installSshCertificate(dir, certificate, publicKeyFile);
  ctx.logger.info('SSH certificate installed', {
    file: record.file,
    principals: certificate.principals.join(','),
    not_after: certificate.not_after,
    trusted_user_ca_keys: dir.file('trusted-user-ca.pub'),
  });
  return ExitCode.ok;
}

/** The first line of an OpenSSH public key file; a private key or anything else is exit 2. */
export function readPublicKey(path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new AgentExit(ExitCode.usage, `--public-key ${path}: ${(error as Error).message}`);
  }
  if (text.includes('PRIVATE KEY')) {
    throw new AgentExit(
      ExitCode.usage,
      `--public-key ${path} is a private key: give the .pub file`,
    );
  }
  const line = text.trim().split('\n')[0] ?? '';
  if (!/^(ssh-|ecdsa-)\S+ [A-Za-z0-9+/=]+/.test(line)) {
    throw new AgentExit(ExitCode.usage, `--public-key ${path} is not an OpenSSH public key line`);
  }
  return `${line}\n`;
}
