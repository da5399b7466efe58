import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** cRLNumber (RFC 5280, 5.2.3). */
const CRL_NUMBER_OID = '2.5.29.20';

/** The cRLNumber and the revoked serials (lower-case hex) of a DER CRL, read with pkijs. */
export function crlOf(der: Buffer): { number: bigint; revokedSerials: string[] } {
  const crl = pkijs.CertificateRevocationList.fromBER(der);
  const extension = crl.crlExtensions?.extensions.find((e) => e.extnID === CRL_NUMBER_OID);
  if (!extension) throw new Error('the CRL has no cRLNumber');
  const value = asn1js.fromBER(extension.extnValue.valueBlock.valueHexView).result;
  if (!(value instanceof asn1js.Integer)) throw new Error('the cRLNumber is no INTEGER');
  return {
    number: value.toBigInt(),
    revokedSerials: (crl.revokedCertificates ?? []).map((entry) =>
      Buffer.from(entry.userCertificate.valueBlock.valueHexView)
        .toString('hex')
        .replace(/^(00)+(?=.)/, ''),
    ),
  };
}
