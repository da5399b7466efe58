import { verify, X509Certificate } from 'node:crypto';
import { children, contents, decodeOid, readElement, whole } from './der-reader';

/** Hash of the CRL signature algorithms the service's CAs use (ECDSA and RSA PKCS#1 v1.5). */
const SIGNATURE_HASH: Record<string, string> = {
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
};

export interface ParsedCrl {
  /** Serials of the revoked certificates, lowercase hex without leading zeros. */
  readonly revoked: ReadonlySet<string>;
  /** True when one of `issuers` signed it. */
  readonly signedBy: (issuers: readonly X509Certificate[]) => boolean;
}

/** The revoked serials of a DER X.509 v2 CRL (RFC 5280 5.1), and its signature check. */
export function parseCrl(der: Buffer): ParsedCrl {
  const root = readElement(der, 0);
  const [tbs, algorithm, signatureBits] = children(der, root);
  const fields = children(der, tbs);
  // version? signature issuer thisUpdate nextUpdate? revokedCertificates? [0] extensions?
  let index = fields[0]?.tag === 0x02 ? 1 : 0;
  index += 3; // signature, issuer, thisUpdate
  if (fields[index] && (fields[index].tag === 0x17 || fields[index].tag === 0x18)) index += 1;
  const revoked = new Set<string>();
  const list = fields[index];
  if (list && list.tag === 0x30) {
    for (const entry of children(der, list)) {
      const [serial] = children(der, entry);
      revoked.add(normalizeSerial(contents(der, serial).toString('hex')));
    }
  }
  const hash = SIGNATURE_HASH[decodeOid(contents(der, children(der, algorithm)[0]))];
  const signature = contents(der, signatureBits).subarray(1);
  const signed = whole(der, tbs);
  return {
    revoked,
    signedBy: (issuers) =>
      hash !== undefined &&
      issuers.some((issuer) => {
        try {
          return verify(hash, signed, issuer.publicKey, signature);
        } catch {
          return false;
        }
      }),
  };
}

export function normalizeSerial(hex: string): string {
  return hex.toLowerCase().replace(/^0+(?=.)/, '');
}

/** The certificates of a PEM bundle. */
export function certificatesOf(pem: string): X509Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new X509Certificate(block));
}
