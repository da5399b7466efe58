import { OpensslWorkspace } from './support/openssl';
import { createCa, issueTo, opensslCsr } from './support/pki-fixture';

describe('CRL checked by openssl', () => {
  const ws = new OpensslWorkspace();
  const { issuer } = createCa(ws);
  afterAll(() => ws.cleanup());

  it('parses the CRL and rejects exactly the revoked certificate', async () => {
    const csr = opensslCsr(ws, 'dev', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
    const revokedSerial = await issueTo(ws, issuer, 'revoked', {
      requestId: 'r1',
      purpose: 'wifi',
      csr,
      subjectCommonName: 'SN-1',
    });
    await issueTo(ws, issuer, 'good', {
      requestId: 'r2',
      purpose: 'wifi',
      csr,
      subjectCommonName: 'SN-2',
    });
    const ack = await issuer.revoke(revokedSerial, 'keyCompromise');
    if (ack.status !== 'revoked') throw new Error('expected revoked');
    const now = new Date();
    const crl = issuer.buildCrl({
      crlNumber: 42,
      thisUpdate: new Date(now.getTime() - 60_000),
      nextUpdate: new Date(now.getTime() + 86_400_000),
      entries: [
        { serial: ack.serial, revokedAt: ack.revokedAt, reason: ack.reason },
        { serial: '0badc0de', revokedAt: now, reason: 'cessationOfOperation' },
        { serial: '01', revokedAt: now },
      ],
    });
    ws.write('crl.der', crl);
    const text = ws.ok(['crl', '-inform', 'DER', '-in', 'crl.der', '-text', '-noout']);
    expect(text).toContain('Version 2 (0x1)');
    expect(text).toMatch(/X509v3 CRL Number: \n\s+42/);
    expect(text).toContain('X509v3 Authority Key Identifier');
    expect(text).toContain(`Serial Number: ${revokedSerial.toUpperCase()}`);
    expect(text).toContain('Key Compromise');
    expect(text).toContain('Cessation Of Operation');
    ws.ok(['crl', '-inform', 'DER', '-in', 'crl.der', '-out', 'crl.pem']);
    expect(ws.run(['crl', '-in', 'crl.pem', '-CAfile', 'cas.pem', '-noout']).stderr).toContain(
      'verify OK',
    );

    const verify = (name: string) =>
      ws.run(['verify', '-crl_check', '-CAfile', 'cas.pem', '-CRLfile', 'crl.pem', `${name}.pem`]);
    const rejected = verify('revoked');
    expect(rejected.status).not.toBe(0);
    expect(rejected.stdout + rejected.stderr).toContain('certificate revoked');
    const accepted = verify('good');
    expect(accepted.status).toBe(0);
    expect(accepted.stdout).toContain('good.pem: OK');
  });
});
