import { loadCertsvcConfig } from './certsvc-config';

const BASE = {
  CERTSVC_DATABASE_URL: 'postgres://x@localhost/db',
  CERTSVC_JWT_SECRET: 's'.repeat(40),
  CERTSVC_CA_KEY_ENC_KEY: '11'.repeat(32),
};

describe('issuer settings (CERTSVC_ISSUER, CERTSVC_SCEP_ENC_KEY, CERTSVC_ISSUER_*)', () => {
  it('defaults: built_in, no key outside dev mode, reload 10 s, no redirects, https only', () => {
    const { issuers } = loadCertsvcConfig(BASE);
    expect(issuers).toMatchObject({
      defaultKind: 'built_in',
      secretKey: undefined,
      secretKeyDerived: false,
      reloadSeconds: 10,
      egress: { allowHttp: false, allowLocalDial: false, maxRedirects: 0 },
    });
  });

  it('reads the kind, the key (hex or base64) and the egress policy', () => {
    const hex = loadCertsvcConfig({
      ...BASE,
      CERTSVC_ISSUER: 'est',
      CERTSVC_SCEP_ENC_KEY: '24'.repeat(32),
      CERTSVC_ISSUER_EGRESS_ALLOW_HTTP: 'true',
      CERTSVC_ISSUER_EGRESS_MAX_REDIRECTS: '2',
    }).issuers;
    expect(hex.defaultKind).toBe('est');
    expect(hex.secretKey?.equals(Buffer.alloc(32, 0x24))).toBe(true);
    expect(hex.egress).toMatchObject({ allowHttp: true, maxRedirects: 2 });
    const b64 = loadCertsvcConfig({
      ...BASE,
      CERTSVC_SCEP_ENC_KEY: Buffer.alloc(32, 9).toString('base64'),
    }).issuers;
    expect(b64.secretKey?.equals(Buffer.alloc(32, 9))).toBe(true);
  });

  it('dev mode without a key derives a fixed one and says so', () => {
    const a = loadCertsvcConfig({ ...BASE, CERTSVC_DEV_MODE: 'true' }).issuers;
    const b = loadCertsvcConfig({ ...BASE, CERTSVC_DEV_MODE: 'true' }).issuers;
    expect(a.secretKeyDerived).toBe(true);
    expect(a.secretKey?.equals(b.secretKey ?? Buffer.alloc(0))).toBe(true);
  });

  it('refuses a bad kind, a short key and a bad reload period, naming the variable only', () => {
    expect(() => loadCertsvcConfig({ ...BASE, CERTSVC_ISSUER: 'acme' })).toThrow(/CERTSVC_ISSUER/);
    let message = '';
    try {
      loadCertsvcConfig({ ...BASE, CERTSVC_SCEP_ENC_KEY: 'abcd1234' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('CERTSVC_SCEP_ENC_KEY must be 32 bytes');
    expect(message).not.toContain('abcd1234');
    expect(() => loadCertsvcConfig({ ...BASE, CERTSVC_ISSUER_RELOAD_SECONDS: '0' })).toThrow(
      /CERTSVC_ISSUER_RELOAD_SECONDS/,
    );
  });
});
