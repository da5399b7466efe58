import { generateCaMaterial } from '../ca/ca-bootstrap';
import { readCertificateInfo } from '../ca/certificate-info';
import { loadIssuingCa } from '../ca/issuing-ca';
import { parseCsr } from '../csr/csr-parser';
import { ecKeyPair, makeCsr } from '../testing/csr-factory';
import { BuiltInCaIssuer } from './built-in-ca-issuer';
import { IssueRequest } from './certificate-issuer';

const kek = Buffer.alloc(32, 9);
const ca = loadIssuingCa(generateCaMaterial(kek), kek);
const csr = parseCsr(makeCsr({ keyPair: ecKeyPair(), commonName: 'ignored' }));

describe('BuiltInCaIssuer', () => {
  const issuer = new BuiltInCaIssuer(ca);

  it('reports its capabilities', () => {
    expect(issuer.capabilities()).toEqual({
      kind: 'built_in',
      async: false,
      supportsRevoke: true,
      supportsCrl: true,
      purposes: ['wifi', 'user_mtls', 'ad_logon', 'vpn'],
    });
  });

  it('issues with the chain and the subject chosen by the caller, not by the CSR', async () => {
    const outcome = await issuer.issue({
      requestId: 'r1',
      purpose: 'wifi',
      csr,
      subjectCommonName: 'SN-1',
    });
    if (outcome.status !== 'issued') throw new Error('expected issued');
    expect(outcome.chainDer).toEqual([ca.certificateDer, ca.rootCertificateDer]);
    const info = readCertificateInfo(outcome.certificateDer);
    expect(info.subjectDer.toString('latin1')).toContain('SN-1');
    expect(info.subjectDer.toString('latin1')).not.toContain('ignored');
  });

  it('rejects a failing issue with the PkiError', async () => {
    await expect(
      issuer.issue({ requestId: 'r2', purpose: 'ad_logon', csr, subjectCommonName: 'alice' }),
    ).rejects.toMatchObject({ code: 'san_invalid' });
  });

  it('issues a batch with per-row errors', async () => {
    const requests: IssueRequest[] = Array.from({ length: 150 }, (_, i) => ({
      requestId: `r${i}`,
      purpose: 'user_mtls',
      csr,
      subjectCommonName: i === 70 ? 'bad\u0007name' : `user${i}`,
    }));
    const outcomes = await issuer.issueMany(requests);
    expect(outcomes).toHaveLength(150);
    expect(outcomes[70]).toMatchObject({
      requestId: 'r70',
      status: 'error',
      code: 'subject_invalid',
    });
    expect(outcomes.filter((o) => o.status === 'issued')).toHaveLength(149);
    const serials = new Set(outcomes.map((o) => (o.status === 'issued' ? o.serial : '')));
    expect(serials.size).toBe(150);
  });

  it('acknowledges revocation and builds the CRL from entries the caller keeps', async () => {
    const revoked = await issuer.revoke('0A:BC', 'keyCompromise');
    expect(revoked).toMatchObject({ status: 'revoked', serial: '0abc', crlUpdateRequired: true });
    await expect(issuer.revoke('nope', 'keyCompromise')).rejects.toMatchObject({
      code: 'crl_invalid',
    });
    const crl = issuer.buildCrl({
      crlNumber: 1,
      thisUpdate: new Date(),
      nextUpdate: new Date(Date.now() + 3_600_000),
      entries: [{ serial: '0abc', revokedAt: new Date(), reason: 'keyCompromise' }],
    });
    expect(crl[0]).toBe(0x30);
  });
});
