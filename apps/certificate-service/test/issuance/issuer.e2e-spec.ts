import { DataSource } from 'typeorm';
import { startTestApp, TEST_CA_KEY_ENC_KEY, type TestApp } from '../support/test-app';
import { CaMaterialRepository } from '../../src/modules/ca/ca-material.repository';
import { generateCaMaterial, parseKeyEncryptionKey } from '@platform/pki';

describe('Issuer - /api/v1/issuer (GET)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('is public and lists the built-in CA for every X.509 purpose', async () => {
    const res = await t.http.get('/api/v1/issuer').expect(200);
    expect(res.body).toMatchObject({
      kind: 'built_in',
      async: false,
      supports_revoke: true,
      supports_crl: true,
      purposes: ['wifi', 'user_mtls', 'ad_logon', 'vpn'],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE|BEGIN/);
  });

  it('stores one CA with sealed keys; concurrent first starts agree on it', async () => {
    const ds = t.app.get(DataSource);
    const [row] = (await ds.query(
      `SELECT root_encrypted_key, issuing_encrypted_key FROM ca_material`,
    )) as {
      root_encrypted_key: string;
      issuing_encrypted_key: string;
    }[];
    expect(row.root_encrypted_key).toMatch(/^v1:/);
    expect(row.issuing_encrypted_key).toMatch(/^v1:/);
    const store = t.app.get(CaMaterialRepository);
    const stored = await store.load();
    const kek = parseKeyEncryptionKey(TEST_CA_KEY_ENC_KEY);
    const results = await Promise.all([
      store.saveIfAbsent(generateCaMaterial(kek)),
      store.saveIfAbsent(generateCaMaterial(kek)),
    ]);
    for (const r of results)
      expect(
        r.issuing.certificateDer.equals(stored?.issuing.certificateDer ?? Buffer.alloc(0)),
      ).toBe(true);
  });
});
