import { ConfigError } from '@platform/config';
import { loadCertsvcConfig } from './certsvc-config';
import { pkiPublicUrls } from './pki-publication-config';

const BASE = {
  CERTSVC_DATABASE_URL: 'postgres://x@localhost/db',
  CERTSVC_JWT_SECRET: 's'.repeat(40),
  CERTSVC_CA_KEY_ENC_KEY: '11'.repeat(32),
};

function problems(env: Record<string, string>): string {
  try {
    loadCertsvcConfig({ ...BASE, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('loadCertsvcConfig - CERTSVC_PKI_BASE_URL', () => {
  it('is unset by default: no URLs to put into certificates', () => {
    const config = loadCertsvcConfig(BASE);
    expect(config.pkiPublication).toEqual({ baseUrl: undefined });
    expect(pkiPublicUrls(config.pkiPublication)).toBeUndefined();
  });

  it('keeps a path prefix for proxies, drops trailing slashes, and names every published URL', () => {
    const config = loadCertsvcConfig({
      ...BASE,
      CERTSVC_PKI_BASE_URL: 'http://gw.example.com:8080/certs//',
    });
    expect(pkiPublicUrls(config.pkiPublication)).toEqual({
      issuingCrl: 'http://gw.example.com:8080/certs/pki/issuing-ca.crl',
      rootCrl: 'http://gw.example.com:8080/certs/pki/root-ca.crl',
      issuingCertificate: 'http://gw.example.com:8080/certs/pki/issuing-ca.crt',
      rootCertificate: 'http://gw.example.com:8080/certs/pki/root-ca.crt',
      ocsp: 'http://gw.example.com:8080/certs/pki/ocsp',
    });
    expect(
      loadCertsvcConfig({ ...BASE, CERTSVC_PKI_BASE_URL: 'https://pki.example.com/' })
        .pkiPublication.baseUrl,
    ).toBe('https://pki.example.com');
  });

  it.each([
    'pki.example.com',
    'ftp://pki.example.com',
    'http://pki.example.com/?x=1',
    'http://pki.example.com/#f',
    'http://user:pw@pki.example.com',
    'http://pki.example.com/ä',
  ])('refuses %s', (value) => {
    expect(problems({ CERTSVC_PKI_BASE_URL: value })).toContain('CERTSVC_PKI_BASE_URL must be');
  });
});
