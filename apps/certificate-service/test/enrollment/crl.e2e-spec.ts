import { execFileSync } from 'node:child_process';
import { startEnrollApp } from '../fixtures/enroll';
import type { TestApp } from '../support/test-app';

describe('Revocation lists - /api/v1/enroll/crl (POST)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startEnrollApp();
  });
  afterAll(() => t.close());

  it('returns the current CRLs as PEM without a session, parseable by openssl crl', async () => {
    const res = await t.http.post('/api/v1/enroll/crl').expect(200);
    expect(res.body.crls.length).toBeGreaterThan(0);
    for (const crl of res.body.crls as {
      pem: string;
      this_update: string;
      next_update: string;
    }[]) {
      expect(Date.parse(crl.next_update)).toBeGreaterThan(Date.parse(crl.this_update));
      const text = execFileSync('openssl', ['crl', '-noout', '-text'], {
        input: crl.pem,
      }).toString();
      expect(text).toContain('Certificate Revocation List');
    }
  });
});
