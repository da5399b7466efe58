import { chownSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ApiError } from '../api/api-errors';
import type { SshAgentCertificate } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { StateDir } from '../state/state-dir';

/** `<state>/ssh/certificate.json`: the installed SSH certificate and where it went. */
export interface SshCertificateRecord extends SshAgentCertificate {
  /** The `<key>-cert.pub` file. */
  file: string;
  /** The public key file the certificate belongs to. */
  public_key_file?: string;
}

/** `<state>/ssh/` (0700, files 0600). */
export function sshDir(state: StateDir): StateDir {
  const dir = new StateDir(join(state.path, 'ssh'));
  dir.ensure();
  return dir;
}

/** The `<key>-cert.pub` path OpenSSH looks for beside `<key>.pub`. */
export function certificateFileOf(publicKeyFile: string): string {
  return `${publicKeyFile.replace(/\.pub$/, '')}-cert.pub`;
}

/**
 * `POST /enroll/ssh` with the public key line; records the new request (`request-id`,
 * `agent-secret`, `public-key.pub` and the key's path `public-key-file`) for the wait. A refusal is an exit 3 with the service's code.
 */
export async function sendSshRequest(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  facts: { serial: string; enrollmentToken: string; publicKey: string; publicKeyFile: string },
): Promise<{ requestId: string; secret: string }> {
  let answer;
  try {
    answer = await withRetry(ctx, 'SSH enrollment', () =>
      client.enrollSsh(facts.serial, facts.enrollmentToken, facts.publicKey, AGENT_VERSION),
    );
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new AgentExit(
      ExitCode.refused,
      `the service refused the SSH key: ${error.status} ${error.code}: ${error.message}`,
    );
  }
  dir.write('public-key.pub', facts.publicKey);
  dir.write('public-key-file', `${facts.publicKeyFile}\n`);
  dir.write('agent-secret', answer.agent_secret);
  dir.write('request-id', answer.request_id);
  return { requestId: answer.request_id, secret: answer.agent_secret };
}

/**
 * Writes the certificate where OpenSSH finds it (`<key>-cert.pub`, 0600, owned like the public
 * key when the agent runs as root for another user), the user CA line and `certificate.json`,
 * and closes the request (`request-id` removed: the next request is a new one).
 */
export function installSshCertificate(
  dir: StateDir,
  certificate: SshAgentCertificate,
  publicKeyFile: string,
): SshCertificateRecord {
  const certFile = certificateFileOf(publicKeyFile);
  new StateDir(dirname(certFile)).write(basename(certFile), `${certificate.ssh_certificate}\n`);
  ownLike(certFile, publicKeyFile);
  dir.write('trusted-user-ca.pub', `${certificate.ca_public_key}\n`);
  const record: SshCertificateRecord = {
    ...certificate,
    file: certFile,
    public_key_file: publicKeyFile,
  };
  dir.write('certificate.json', `${JSON.stringify(record, null, 2)}\n`);
  dir.remove('request-id');
  return record;
}

export function readSshRecord(dir: StateDir): SshCertificateRecord | null {
  const text = dir.read('certificate.json');
  if (text === null) return null;
  try {
    return JSON.parse(text) as SshCertificateRecord;
  } catch {
    throw new AgentExit(ExitCode.state, `${dir.file('certificate.json')} is damaged (not JSON)`);
  }
}

/** A root agent renewing a user's certificate leaves it owned by that user (ssh reads it). */
function ownLike(file: string, reference: string): void {
  if (process.getuid?.() !== 0) return;
  try {
    const { uid, gid } = statSync(reference);
    chownSync(file, uid, gid);
  } catch {
    // The public key is gone: the certificate stays root's; the next `ssh` rewrites it.
  }
}
