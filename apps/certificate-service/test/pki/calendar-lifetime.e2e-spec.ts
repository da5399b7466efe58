import {
  BuiltInCaIssuer,
  generateCaMaterial,
  IssueRequest,
  loadIssuingCa,
  ParsedCsr,
} from '@platform/pki';
import { OpensslWorkspace } from './support/openssl';
import { issueTo, opensslCsr } from './support/pki-fixture';

describe('certificate lifetimes read back by openssl (injected clock)', () => {
  const ws = new OpensslWorkspace();
  const kek = Buffer.alloc(32, 0x33);
  const ca = loadIssuingCa(generateCaMaterial(kek, { now: new Date('2024-01-01T00:00:00Z') }), kek);
  let csr: ParsedCsr;

  beforeAll(() => {
    csr = opensslCsr(ws, 'leaf', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
  });
  afterAll(() => ws.cleanup());

  /** openssl's notBefore / notAfter of a certificate issued at `now`. */
  async function validity(
    issuer: BuiltInCaIssuer,
    request: Omit<IssueRequest, 'requestId' | 'csr'>,
  ): Promise<{ notBefore: string; notAfter: string }> {
    await issueTo(ws, issuer, 'leaf-cert', { requestId: 'r1', csr, ...request });
    const out = ws.ok(['x509', '-in', 'leaf-cert.pem', '-noout', '-startdate', '-enddate']);
    return {
      notBefore: /notBefore=(.*)/.exec(out)?.[1] ?? '',
      notAfter: /notAfter=(.*)/.exec(out)?.[1] ?? '',
    };
  }

  it('wifi: three calendar years; issued on Feb 29 it ends on Feb 28', async () => {
    const issuer = new BuiltInCaIssuer(ca);
    const leapDay = new Date('2024-02-29T10:20:30Z');
    expect(
      await validity(issuer, { purpose: 'wifi', subjectCommonName: 'SN-1', now: leapDay }),
    ).toEqual({
      notBefore: 'Feb 29 10:15:30 2024 GMT',
      notAfter: 'Feb 28 10:20:30 2027 GMT',
    });
    // 1 096 days: the old 1 095-day lifetime ended on Feb 29 2028
    const spring = new Date('2025-03-01T08:00:00Z');
    expect(
      (await validity(issuer, { purpose: 'wifi', subjectCommonName: 'SN-2', now: spring }))
        .notAfter,
    ).toBe('Mar  1 08:00:00 2028 GMT');
  });

  it('user_mtls and ad_logon: one calendar year', async () => {
    const issuer = new BuiltInCaIssuer(ca);
    const leapDay = new Date('2024-02-29T23:59:59Z');
    for (const purpose of ['user_mtls', 'ad_logon'] as const) {
      const got = await validity(issuer, {
        purpose,
        subjectCommonName: 'alice',
        now: leapDay,
        ...(purpose === 'ad_logon' ? { userPrincipalName: 'alice@corp.example' } : {}),
      });
      expect(got.notAfter).toBe('Feb 28 23:59:59 2025 GMT');
    }
  });

  it('a configured wifi lifetime in months is calendar months', async () => {
    const issuer = new BuiltInCaIssuer(ca, { wifiLifetime: { unit: 'months', amount: 18 } });
    const got = await validity(issuer, {
      purpose: 'wifi',
      subjectCommonName: 'SN-3',
      now: new Date('2025-08-31T12:00:00Z'),
    });
    expect(got.notAfter).toBe('Feb 28 12:00:00 2027 GMT');
  });
});
