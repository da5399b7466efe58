import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toPem } from '@platform/pki';
import { IssuerRegistry } from '../../src/modules/ca/issuer-registry';
import type { TestApp } from '../support/test-app';

/**
 * `/pki/ocsp/<request>` path value before URL encoding (RFC 6960 A.1: base64) of an OCSP
 * request for `serial` of the built-in issuing CA, built by `openssl ocsp -reqout` (no nonce).
 */
export function ocspGetPathValue(t: TestApp, serial: string): string {
  const issuingDer = t.app.get(IssuerRegistry).builtIn().caCertificates().issuingDer;
  const dir = mkdtempSync(join(tmpdir(), 'certsvc-ocsp-req-'));
  try {
    writeFileSync(join(dir, 'issuing.pem'), toPem('CERTIFICATE', issuingDer));
    execFileSync('openssl', [
      'ocsp',
      '-issuer',
      join(dir, 'issuing.pem'),
      '-serial',
      `0x${serial}`,
      '-no_nonce',
      '-reqout',
      join(dir, 'req.der'),
    ]);
    return readFileSync(join(dir, 'req.der')).toString('base64');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
