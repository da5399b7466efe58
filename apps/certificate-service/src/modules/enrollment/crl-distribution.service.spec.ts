import { CrlDistributionService } from './crl-distribution.service';
import type { CrlSource } from './crl-source';

describe('CrlDistributionService', () => {
  it('answers crl_unavailable without a source or without a CRL', async () => {
    await expect(new CrlDistributionService().current()).rejects.toMatchObject({
      code: 'crl_unavailable',
    });
    const empty: CrlSource = { current: () => Promise.resolve([]) };
    await expect(new CrlDistributionService(empty).current()).rejects.toMatchObject({
      code: 'crl_unavailable',
    });
  });

  it('passes the current CRLs through', async () => {
    const crl = {
      issuer: 'CN=CA',
      der: Buffer.from([0x30, 0x00]),
      thisUpdate: new Date(0),
      nextUpdate: new Date(1),
    };
    const source: CrlSource = { current: () => Promise.resolve([crl]) };
    await expect(new CrlDistributionService(source).current()).resolves.toEqual([crl]);
  });
});
