import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPki {
  caPem: string;
  keyPem: string;
  certPem: string;
}

/**
 * A throw-away CA and a server certificate made by `openssl` (a real peer, not a library
 * under test). The certificate covers `names` and `ips`; anything else fails verification.
 */
export function createTestPki(names: readonly string[], ips: readonly string[]): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'egress-pki-'));
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    run([
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '2',
      '-subj',
      '/CN=Egress Test CA',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    run([
      'req',
      '-new',
      ...ec,
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      `/CN=${names[0]}`,
    ]);
    const san = [...names.map((n) => `DNS:${n}`), ...ips.map((ip) => `IP:${ip}`)].join(',');
    writeFileSync(
      join(dir, 'ext.cnf'),
      `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n`,
    );
    run([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      '0x' + Date.now().toString(16),
      '-days',
      '2',
      '-out',
      'server.pem',
      '-extfile',
      'ext.cnf',
    ]);
    return {
      caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
      keyPem: readFileSync(join(dir, 'server.key'), 'utf8'),
      certPem: readFileSync(join(dir, 'server.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
