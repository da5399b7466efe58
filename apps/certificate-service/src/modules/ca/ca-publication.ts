import type { Logger } from '@nestjs/common';
import {
  caCertificatesHavePointers,
  ensureCaMaterial,
  reissueCaCertificates,
  type CaCertificatePointers,
  type CaMaterial,
  type RevocationPointers,
} from '@platform/pki';
import type { CertsvcPkiPublicationConfig } from '../../app/config/pki-publication-config';
import { pkiPublicUrls } from '../../app/config/pki-publication-config';
import type { CaMaterialRepository } from './ca-material.repository';

/** CDP / AIA of the CA certificates and of the leaves the issuing CA signs. */
export interface CaPointers extends CaCertificatePointers {
  readonly leaf: RevocationPointers;
}

export function caPointers(config: CertsvcPkiPublicationConfig): CaPointers {
  const urls = pkiPublicUrls(config);
  if (!urls) return { root: {}, issuing: {}, leaf: {} };
  return {
    // The root names its own CRL: `-crl_check_all` checks the trust anchor too.
    root: { crlDistributionUrls: [urls.rootCrl] },
    issuing: { crlDistributionUrls: [urls.rootCrl], caIssuersUrls: [urls.rootCertificate] },
    leaf: {
      crlDistributionUrls: [urls.issuingCrl],
      caIssuersUrls: [urls.issuingCertificate],
      ocspUrls: [urls.ocsp],
    },
  };
}

/**
 * Loads (or generates) the built-in CA. When `CERTSVC_PKI_BASE_URL` is set and the stored CA
 * certificates lack that CDP / AIA (a CA created before, or the URL changed), the root signs
 * both CA certificates again under the same keys, names and validity and the store swaps
 * them in atomically (replicas starting together agree on one pair). Certificates issued
 * before keep chaining: issuer names and key identifiers are unchanged.
 */
export async function loadPublishedCaMaterial(
  store: CaMaterialRepository,
  kek: Buffer,
  pointers: CaPointers,
  logger: Logger,
): Promise<CaMaterial> {
  const material = await ensureCaMaterial(store, kek, {
    rootPointers: pointers.root,
    issuingPointers: pointers.issuing,
  });
  if (pointers.issuing.crlDistributionUrls === undefined) {
    logger.warn(
      'CERTSVC_PKI_BASE_URL not set: issued certificates carry no CRL distribution point',
    );
    return material;
  }
  if (caCertificatesHavePointers(material, pointers)) return material;
  const reissued = reissueCaCertificates(material, kek, pointers);
  const stored = await store.replaceCaCertificates(material, reissued);
  logger.warn(
    { crl_url: pointers.issuing.crlDistributionUrls[0] },
    'CA certificates re-issued under the same keys with the CRL distribution points',
  );
  return stored;
}
