import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A TLS server identity: a self-signed certificate (its own trust anchor) and its key. */
export interface TlsIdentity {
  readonly certPem: string;
  readonly keyPem: string;
}

/**
 * A self-signed P-256 server certificate for `127.0.0.1` and `localhost`, made by the real
 * `openssl req -x509` (a TLS trust anchor for loopback stand-ins, one day valid).
 */
export function selfSignedTlsIdentity(commonName = '127.0.0.1'): TlsIdentity {
  const dir = mkdtempSync(join(tmpdir(), 'tls-identity-'));
  try {
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        `/CN=${commonName}`,
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-addext',
        'extendedKeyUsage=serverAuth',
      ],
      { stdio: 'pipe' },
    );
    return { certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
