import { toPem } from '../der/pem';
import { PkiError } from '../pki.errors';
import { writeStoredZip, ZipEntry } from './zip-writer';

export interface CertificateBundleInput {
  readonly certificateDer: Buffer;
  /** Issuer first, root (trust anchor) last, as in IssueOutcome.chainDer. */
  readonly chainDer: readonly Buffer[];
  /** ZIP timestamp; use the certificate's notBefore so the bytes are stable. */
  readonly modifiedAt: Date;
}

const pems = (ders: readonly Buffer[]): string =>
  ders.map((der) => toPem('CERTIFICATE', der)).join('');

/**
 * The bundle download (`GET /api/v1/certificates/{serial}/bundle`):
 * - `certificate.pem`: the issued certificate only;
 * - `chain.pem`: the intermediate CA certificates (issuing CA), what a client sends after its
 *   own certificate; left out when the root signed the certificate directly;
 * - `fullchain.pem`: certificate followed by the intermediates (for clients taking one file);
 * - `ca.pem`: the root CA, the trust anchor to install (e.g. on RADIUS servers).
 * No private key is ever part of the bundle: the key stays on the device that made the CSR.
 */
export function buildCertificateBundle(input: CertificateBundleInput): Buffer {
  if (input.chainDer.length === 0) throw new PkiError('bundle_invalid', 'bundle needs a CA chain');
  const intermediates = input.chainDer.slice(0, -1);
  const root = input.chainDer[input.chainDer.length - 1];
  const entries: ZipEntry[] = [
    { name: 'certificate.pem', data: Buffer.from(toPem('CERTIFICATE', input.certificateDer)) },
  ];
  if (intermediates.length > 0)
    entries.push({ name: 'chain.pem', data: Buffer.from(pems(intermediates)) });
  entries.push(
    { name: 'fullchain.pem', data: Buffer.from(pems([input.certificateDer, ...intermediates])) },
    { name: 'ca.pem', data: Buffer.from(toPem('CERTIFICATE', root)) },
  );
  return writeStoredZip(entries, input.modifiedAt);
}
