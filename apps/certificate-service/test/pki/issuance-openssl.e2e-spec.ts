import { buildCertificateBundle, certificatesFromPem, ParsedCsr } from '@platform/pki';
import { OpensslWorkspace } from './support/openssl';
import { createCa, issueTo, opensslCsr } from './support/pki-fixture';

const DAY = 86_400_000;

describe('issued certificates checked by openssl', () => {
  const ws = new OpensslWorkspace();
  const { issuer } = createCa(ws);
  let ecCsr: ParsedCsr;
  let rsaCsr: ParsedCsr;

  beforeAll(() => {
    ecCsr = opensslCsr(ws, 'ec-device', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
    rsaCsr = opensslCsr(ws, 'rsa-user', ['-newkey', 'rsa:2048']);
  });
  afterAll(() => ws.cleanup());

  const text = (name: string): string => ws.ok(['x509', '-in', `${name}.pem`, '-text', '-noout']);
  const lifetimeDays = (name: string): number => {
    const out = ws.ok(['x509', '-in', `${name}.pem`, '-noout', '-startdate', '-enddate']);
    const [, start] = /notBefore=(.*)/.exec(out)!;
    const [, end] = /notAfter=(.*)/.exec(out)!;
    return Math.round((Date.parse(end) - Date.parse(start)) / DAY);
  };
  const verifyChain = (name: string): string =>
    ws.ok([
      'verify',
      '-purpose',
      'sslclient',
      '-CAfile',
      'root.pem',
      '-untrusted',
      'issuing.pem',
      `${name}.pem`,
    ]);

  it('root and issuing CA certificates are accepted as CAs', () => {
    expect(ws.ok(['verify', '-CAfile', 'root.pem', 'root.pem'])).toContain('OK');
    expect(ws.ok(['verify', '-CAfile', 'root.pem', 'issuing.pem'])).toContain('OK');
    expect(ws.ok(['x509', '-in', 'root.pem', '-noout', '-text'])).toMatch(
      /CA:TRUE[\s\S]*Certificate Sign, CRL Sign/,
    );
    expect(ws.ok(['x509', '-in', 'issuing.pem', '-noout', '-text'])).toMatch(/CA:TRUE, pathlen:0/);
    expect(ws.ok(['x509', '-in', 'issuing.pem', '-noout', '-subject'])).toContain(
      'O = Example Corp',
    );
  });

  it('wifi: client auth, 3 years, verifies against the chain (EC and RSA keys)', async () => {
    await issueTo(ws, issuer, 'wifi-ec', {
      requestId: 'w1',
      purpose: 'wifi',
      csr: ecCsr,
      subjectCommonName: 'SN-C02XK0',
    });
    await issueTo(ws, issuer, 'wifi-rsa', {
      requestId: 'w2',
      purpose: 'wifi',
      csr: rsaCsr,
      subjectCommonName: 'SN-C02XK1',
    });
    expect(verifyChain('wifi-ec')).toContain('OK');
    expect(verifyChain('wifi-rsa')).toContain('OK');
    expect(ws.ok(['verify', '-CAfile', 'cas.pem', 'wifi-ec.pem'])).toContain('OK');
    const out = text('wifi-ec');
    expect(out).toContain('Subject: CN = SN-C02XK0');
    expect(out).toMatch(/Extended Key Usage: \n\s+TLS Web Client Authentication\n/);
    expect(out).toMatch(/Key Usage: critical\n\s+Digital Signature\n/);
    expect(text('wifi-rsa')).toMatch(/Digital Signature, Key Encipherment/);
    expect(out).toContain('CA:FALSE');
    expect(lifetimeDays('wifi-ec')).toBeGreaterThanOrEqual(3 * 365);
    expect(lifetimeDays('wifi-ec')).toBeLessThanOrEqual(3 * 366);
  });

  it('user_mtls: client auth, 1 year', async () => {
    await issueTo(ws, issuer, 'mtls', {
      requestId: 'u1',
      purpose: 'user_mtls',
      csr: rsaCsr,
      subjectCommonName: 'alice@example.com',
    });
    expect(verifyChain('mtls')).toContain('OK');
    expect(text('mtls')).toMatch(/TLS Web Client Authentication\n/);
    expect([365, 366]).toContain(lifetimeDays('mtls'));
  });

  it('ad_logon: smart card logon EKU, UPN otherName and the SID extension, 1 year', async () => {
    const sid = 'S-1-5-21-3623811015-3361044348-30300820-1013';
    await issueTo(ws, issuer, 'adlogon', {
      requestId: 'a1',
      purpose: 'ad_logon',
      csr: ecCsr,
      subjectCommonName: 'alice',
      userPrincipalName: 'alice@corp.example.com',
      sid,
    });
    await issueTo(ws, issuer, 'adlogon-nosid', {
      requestId: 'a2',
      purpose: 'ad_logon',
      csr: rsaCsr,
      subjectCommonName: 'bob',
      userPrincipalName: 'bob@corp.example.com',
    });
    expect(verifyChain('adlogon')).toContain('OK');
    const out = text('adlogon');
    expect(out).toContain('TLS Web Client Authentication, Microsoft Smartcard Login');
    expect(out).toContain('othername: UPN::alice@corp.example.com');
    expect(out).toContain('1.3.6.1.4.1.311.25.2:');
    expect(out).toContain(sid);
    const parsed = ws.ok(['asn1parse', '-in', 'adlogon.pem', '-i']);
    expect(parsed).toContain('1.3.6.1.4.1.311.25.2');
    expect(text('adlogon-nosid')).not.toContain('1.3.6.1.4.1.311.25.2');
    expect([365, 366]).toContain(lifetimeDays('adlogon'));
  });

  it('vpn: client auth plus IKE intermediate, 1 year', async () => {
    await issueTo(ws, issuer, 'vpn', {
      requestId: 'v1',
      purpose: 'vpn',
      csr: ecCsr,
      subjectCommonName: 'SN-VPN-1',
    });
    expect(verifyChain('vpn')).toContain('OK');
    expect(text('vpn')).toMatch(
      /TLS Web Client Authentication, (ipsec Internet Key Exchange|1\.3\.6\.1\.5\.5\.8\.2\.2)/,
    );
    expect([365, 366]).toContain(lifetimeDays('vpn'));
  });

  it('bundle ZIP is read by unzip and its files verify with openssl', async () => {
    const outcome = await issuer.issue({
      requestId: 'b1',
      purpose: 'wifi',
      csr: ecCsr,
      subjectCommonName: 'SN-BUNDLE',
    });
    if (outcome.status !== 'issued') throw new Error('expected issued');
    ws.write('bundle.zip', buildCertificateBundle({ ...outcome, modifiedAt: outcome.notBefore }));
    const { spawnSync } = await import('node:child_process');
    const test = spawnSync('unzip', ['-t', 'bundle.zip'], { cwd: ws.dir, encoding: 'utf8' });
    expect(test.stdout).toContain('No errors detected');
    const list = spawnSync('unzip', ['-Z1', 'bundle.zip'], { cwd: ws.dir, encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    expect(list).toEqual(['certificate.pem', 'chain.pem', 'fullchain.pem', 'ca.pem']);
    spawnSync('unzip', ['-o', '-d', 'bundle', 'bundle.zip'], { cwd: ws.dir });
    expect(
      ws.ok([
        'verify',
        '-CAfile',
        'bundle/ca.pem',
        '-untrusted',
        'bundle/chain.pem',
        'bundle/certificate.pem',
      ]),
    ).toContain('OK');
    expect(certificatesFromPem(ws.read('bundle/fullchain.pem').toString())).toHaveLength(2);
  });
});
