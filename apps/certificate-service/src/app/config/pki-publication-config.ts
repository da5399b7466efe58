import type { EnvReader } from '@platform/config';

/** Paths of what the built-in CA publishes for relying parties (no authentication). */
export const PKI_PATHS = {
  issuingCrl: '/pki/issuing-ca.crl',
  rootCrl: '/pki/root-ca.crl',
  issuingCertificate: '/pki/issuing-ca.crt',
  rootCertificate: '/pki/root-ca.crt',
  ocsp: '/pki/ocsp',
} as const;

/**
 * Where RADIUS servers, VPN gateways and browsers fetch the built-in CA's CRLs and CA
 * certificates (docs/certificate-service/revocation.md).
 */
export interface CertsvcPkiPublicationConfig {
  /**
   * `CERTSVC_PKI_BASE_URL`: base URL (scheme, host, optional port and path prefix, no trailing
   * slash) under which `/pki/*` of this service is reachable from relying parties, e.g.
   * `http://certs.example.com`. Undefined: certificates carry no CDP / AIA.
   */
  baseUrl: string | undefined;
}

/** The absolute URLs of each published object, or undefined without a base URL. */
export function pkiPublicUrls(
  config: CertsvcPkiPublicationConfig,
): Record<keyof typeof PKI_PATHS, string> | undefined {
  const base = config.baseUrl;
  if (base === undefined) return undefined;
  return {
    issuingCrl: base + PKI_PATHS.issuingCrl,
    rootCrl: base + PKI_PATHS.rootCrl,
    issuingCertificate: base + PKI_PATHS.issuingCertificate,
    rootCertificate: base + PKI_PATHS.rootCertificate,
    ocsp: base + PKI_PATHS.ocsp,
  };
}

export function readPkiPublicationConfig(r: EnvReader): CertsvcPkiPublicationConfig {
  const text = r.optionalString('CERTSVC_PKI_BASE_URL');
  if (text === undefined) return { baseUrl: undefined };
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== '' ||
    // IA5String in the certificate: printable ASCII only.
    !/^[\x21-\x7e]+$/.test(text)
  ) {
    r.problem(
      'CERTSVC_PKI_BASE_URL must be an absolute http(s) URL without query, fragment or credentials',
    );
    return { baseUrl: undefined };
  }
  return { baseUrl: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}
