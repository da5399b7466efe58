import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Key types `ssh-keygen -t` creates, with the OpenSSH key type name each gets. */
export const SSH_KEYGEN_TYPES = {
  ed25519: { args: ['-t', 'ed25519'], type: 'ssh-ed25519' },
  'ecdsa-256': { args: ['-t', 'ecdsa', '-b', '256'], type: 'ecdsa-sha2-nistp256' },
  'ecdsa-384': { args: ['-t', 'ecdsa', '-b', '384'], type: 'ecdsa-sha2-nistp384' },
  'ecdsa-521': { args: ['-t', 'ecdsa', '-b', '521'], type: 'ecdsa-sha2-nistp521' },
  'rsa-3072': { args: ['-t', 'rsa', '-b', '3072'], type: 'ssh-rsa' },
} as const;
export type SshKeygenKind = keyof typeof SSH_KEYGEN_TYPES;

/** A key pair made by the real `ssh-keygen`. */
export interface SshKeygenKey {
  /** The `.pub` line (`type base64 comment`). */
  readonly publicKey: string;
  /** The OpenSSH private key file. */
  readonly privateKey: string;
}

/** Runs `work` in a fresh temporary directory that is removed afterwards. */
export function inSshTempDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'ssh-keygen-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A new key pair of `kind` from `ssh-keygen -t`. */
export function sshKeygenKey(kind: SshKeygenKind, comment = 'test@certsvc'): SshKeygenKey {
  return inSshTempDir((dir) => {
    const file = join(dir, 'key');
    execFileSync(
      'ssh-keygen',
      [...SSH_KEYGEN_TYPES[kind].args, '-q', '-N', '', '-C', comment, '-f', file],
      {
        stdio: 'pipe',
      },
    );
    return {
      publicKey: readFileSync(`${file}.pub`, 'utf8').trim(),
      privateKey: readFileSync(file, 'utf8'),
    };
  });
}

export interface SshKeygenResult {
  readonly status: number;
  readonly out: string;
}

/** `ssh-keygen -L -f <cert>`: the certificate as OpenSSH reads it. */
export function sshKeygenListCertificate(certificateText: string): SshKeygenResult {
  return inSshTempDir((dir) => {
    const file = join(dir, 'key-cert.pub');
    writeFileSync(file, `${certificateText}\n`);
    // TZ=UTC: ssh-keygen prints the validity in local time.
    const run = spawnSync('ssh-keygen', ['-L', '-f', file], {
      encoding: 'utf8',
      env: { ...process.env, TZ: 'UTC' },
    });
    return { status: run.status ?? -1, out: `${run.stdout}${run.stderr}` };
  });
}

/**
 * `ssh-keygen -Q -f <krl> <files>`: exit 1 and `REVOKED` when any of them is revoked, 0 when
 * none is. Query certificate files (a bare `.pub` of a certificate revoked by serial is fine).
 */
export function sshKeygenQueryKrl(krl: Buffer, keyTexts: readonly string[]): SshKeygenResult {
  return inSshTempDir((dir) => {
    const krlFile = join(dir, 'krl');
    writeFileSync(krlFile, krl);
    const files = keyTexts.map((text, i) => {
      const file = join(dir, `key-${i}.pub`);
      writeFileSync(file, `${text}\n`);
      return file;
    });
    const run = spawnSync('ssh-keygen', ['-Q', '-f', krlFile, ...files], { encoding: 'utf8' });
    return { status: run.status ?? -1, out: `${run.stdout}${run.stderr}` };
  });
}

/** `ssh-keygen -Q -l -f <krl>`: OpenSSH's dump of what the KRL revokes. */
export function sshKeygenDumpKrl(krl: Buffer): SshKeygenResult {
  return inSshTempDir((dir) => {
    const krlFile = join(dir, 'krl');
    writeFileSync(krlFile, krl);
    const run = spawnSync('ssh-keygen', ['-Q', '-l', '-f', krlFile], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    return { status: run.status ?? -1, out: `${run.stdout}${run.stderr}` };
  });
}

/** Fields of `ssh-keygen -L` output. */
export interface ListedSshCertificate {
  readonly type: string;
  readonly keyId: string;
  readonly serial: bigint;
  readonly validFrom: string;
  readonly validTo: string;
  readonly principals: string[];
  readonly criticalOptions: string[];
  readonly extensions: string[];
  readonly signingCa: string;
}

function block(out: string, heading: string): string[] {
  const lines = out.split('\n');
  const start = lines.findIndex((l) => l.trim().startsWith(`${heading}:`));
  if (start < 0) return [];
  if (lines[start].trim() !== `${heading}:`) return [];
  const items: string[] = [];
  for (let i = start + 1; i < lines.length && /^\s{16}/.test(lines[i]); i++) {
    items.push(lines[i].trim());
  }
  return items;
}

/** Parses `ssh-keygen -L` output (throws when the certificate was not read). */
export function parseListedCertificate(result: SshKeygenResult): ListedSshCertificate {
  if (result.status !== 0) throw new Error(`ssh-keygen -L failed: ${result.out}`);
  const field = (name: string) =>
    new RegExp(`^\\s*${name}: (.*)$`, 'm').exec(result.out)?.[1] ?? '';
  const validity = /Valid: from (\S+) to (\S+)/.exec(result.out);
  return {
    type: field('Type'),
    keyId: /Key ID: "(.*)"/.exec(result.out)?.[1] ?? '',
    serial: BigInt(field('Serial') || '0'),
    validFrom: validity?.[1] ?? '',
    validTo: validity?.[2] ?? '',
    principals: block(result.out, 'Principals'),
    criticalOptions: block(result.out, 'Critical Options'),
    extensions: block(result.out, 'Extensions'),
    signingCa: field('Signing CA'),
  };
}
