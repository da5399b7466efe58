import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PkiError } from '../pki.errors';

/** Small asn1js/pkijs helpers of the SCEP code. */

export function answerInvalid(message: string): PkiError {
  return new PkiError('scep_answer_invalid', message);
}

/** The bytes of an OCTET STRING, primitive or constructed (BER). */
export function octets(value: asn1js.OctetString): Buffer {
  if (value.idBlock.isConstructed) {
    const parts = (value.valueBlock.value as asn1js.OctetString[]).map(octets);
    return Buffer.concat(parts);
  }
  return Buffer.from(value.valueBlock.valueHexView);
}

export function toDer(schema: { toBER(sizeOnly?: boolean): ArrayBuffer }): Buffer {
  return Buffer.from(schema.toBER(false));
}

/** Parses one DER/BER value; `what` names it in the error. */
export function parseAsn1(der: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1 || parsed.offset !== der.byteLength) {
    throw answerInvalid(`${what} is not valid DER`);
  }
  return parsed.result;
}

/** The ContentInfo of `der` with the expected content type, or a clear `scep_answer_invalid`. */
export function readContentInfo(der: Uint8Array, contentType: string, what: string): unknown {
  let info: pkijs.ContentInfo;
  try {
    info = new pkijs.ContentInfo({ schema: parseAsn1(der, what) });
  } catch (error) {
    if (error instanceof PkiError) throw error;
    throw answerInvalid(`${what} is not a PKCS#7 ContentInfo`);
  }
  if (info.contentType !== contentType) {
    throw answerInvalid(`${what} has content type ${info.contentType}, expected ${contentType}`);
  }
  return info.content as unknown;
}

/** ContentInfo DER around a CMS structure. */
export function contentInfoDer(
  contentType: string,
  content: { toSchema(): asn1js.AsnType },
): Buffer {
  return toDer(new pkijs.ContentInfo({ contentType, content: content.toSchema() }).toSchema());
}

export function algorithm(oid: string, params?: asn1js.AsnType): pkijs.AlgorithmIdentifier {
  return new pkijs.AlgorithmIdentifier({
    algorithmId: oid,
    ...(params === undefined ? {} : { algorithmParams: params }),
  });
}

export function pkijsCertificate(der: Buffer): pkijs.Certificate {
  return pkijs.Certificate.fromBER(der);
}

/** Issuer and serial of a certificate, as CMS identifies a signer or a recipient. */
export function issuerAndSerial(cert: pkijs.Certificate): pkijs.IssuerAndSerialNumber {
  return new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber });
}

/** True when `id` names `cert` (same issuer DER and serial). */
export function identifies(id: unknown, cert: pkijs.Certificate): boolean {
  if (!(id instanceof pkijs.IssuerAndSerialNumber)) return false;
  return (
    toDer(id.issuer.toSchema()).equals(toDer(cert.issuer.toSchema())) &&
    Buffer.from(id.serialNumber.valueBlock.valueHexView).equals(
      Buffer.from(cert.serialNumber.valueBlock.valueHexView),
    )
  );
}

/** A PrintableString / UTF8String attribute value as text, or an OCTET STRING's bytes. */
export function attributeValue(value: unknown): string | Buffer | undefined {
  if (value instanceof asn1js.OctetString) return octets(value);
  if (
    value instanceof asn1js.PrintableString ||
    value instanceof asn1js.Utf8String ||
    value instanceof asn1js.IA5String
  ) {
    return value.valueBlock.value;
  }
  return undefined;
}
