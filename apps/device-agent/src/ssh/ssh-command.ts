import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ApiError } from '../api/api-errors';
import type { SshAgentCertificate } from '../api/api-types';
import { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode, type ExitCodeValue } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { awaitCertificate } from '../enroll/await-certificate';
import { readStatus } from '../state/agent-status';
import { StateDir, StateFile } from '../state/state-dir';

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
  const publicKey = readPublicKey(options.publicKeyFile);
  const dir = new StateDir(join(state.path, 'ssh'));
  dir.ensure();
  const client = new CertsvcClient(status.server);
  let requestId = dir.read('request-id');
  let secret = dir.read('agent-secret');
  if (!requestId || !secret || dir.read('public-key.pub') !== publicKey) {
    let answer;
    try {
      answer = await withRetry(ctx, 'SSH enrollment', () =>
        client.enrollSsh(status.serial, token, publicKey, AGENT_VERSION),
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      throw new AgentExit(
        ExitCode.refused,
        `the service refused the SSH key: ${error.status} ${error.code}: ${error.message}`,
      );
    }
    dir.write('public-key.pub', publicKey);
    dir.write('agent-secret', answer.agent_secret);
    dir.write('request-id', answer.request_id);
    [requestId, secret] = [answer.request_id, answer.agent_secret];
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
  const certFile = `${options.publicKeyFile.replace(/\.pub$/, '')}-cert.pub`;
  new StateDir(dirname(certFile)).write(basename(certFile), `${certificate.ssh_certificate}\n`);
  dir.write('trusted-user-ca.pub', `${certificate.ca_public_key}\n`);
  dir.write('certificate.json', `${JSON.stringify({ ...certificate, file: certFile }, null, 2)}\n`);
  // Done with this request: the next `ssh` asks for a new certificate.
  dir.remove('request-id');
  ctx.logger.info('SSH certificate installed', {
    file: certFile,
    principals: certificate.principals.join(','),
    not_after: certificate.not_after,
    trusted_user_ca_keys: dir.file('trusted-user-ca.pub'),
  });
  return ExitCode.ok;
}

function readPublicKey(path: string): string {
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
