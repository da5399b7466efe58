import { contextTag, DerTag } from '../der/der-tag';
import {
  DerElement,
  expectTag,
  readChildren,
  readInteger,
  readOid,
  readSingle,
  readTime,
} from '../der/der-reader';
import { Oids } from '../der/oids';

/** Fields of an X.509 certificate the module needs to read back. */
export interface CertificateInfo {
  readonly tbsDer: Buffer;
  readonly serial: string;
  readonly issuerDer: Buffer;
  readonly subjectDer: Buffer;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly spkiDer: Buffer;
  readonly subjectKeyIdentifier?: Buffer;
  readonly extensions: ReadonlyMap<string, Buffer>;
}

function readExtensions(wrapper: DerElement | undefined): Map<string, Buffer> {
  const extensions = new Map<string, Buffer>();
  if (!wrapper) return extensions;
  const list = expectTag(readChildren(wrapper)[0], DerTag.SEQUENCE, 'Extensions');
  for (const extension of readChildren(list)) {
    const fields = readChildren(extension);
    const value = expectTag(fields[fields.length - 1], DerTag.OCTET_STRING, 'extnValue');
    extensions.set(readOid(fields[0]), value.content);
  }
  return extensions;
}

/** Reads a DER certificate (throws PkiError der_invalid on malformed input). */
export function readCertificateInfo(der: Buffer): CertificateInfo {
  const [tbs] = readChildren(expectTag(readSingle(der), DerTag.SEQUENCE, 'Certificate'));
  const fields = readChildren(expectTag(tbs, DerTag.SEQUENCE, 'TBSCertificate'));
  const offset = fields[0]?.tag === contextTag(0, true) ? 1 : 0;
  const [serial, , issuer, validity, subject, spki] = fields.slice(offset);
  const [notBefore, notAfter] = readChildren(expectTag(validity, DerTag.SEQUENCE, 'Validity'));
  const extensions = readExtensions(fields.find((f) => f.tag === contextTag(3, true)));
  const ski = extensions.get(Oids.subjectKeyIdentifier);
  const serialValue = readInteger(serial, 'serialNumber');
  let serialHex = serialValue.toString(16);
  if (serialHex.length % 2 === 1) serialHex = `0${serialHex}`;
  return {
    tbsDer: tbs.der,
    serial: serialHex,
    issuerDer: expectTag(issuer, DerTag.SEQUENCE, 'issuer').der,
    subjectDer: expectTag(subject, DerTag.SEQUENCE, 'subject').der,
    notBefore: readTime(notBefore),
    notAfter: readTime(notAfter),
    spkiDer: expectTag(spki, DerTag.SEQUENCE, 'SubjectPublicKeyInfo').der,
    ...(ski
      ? { subjectKeyIdentifier: expectTag(readSingle(ski), DerTag.OCTET_STRING, 'SKI').content }
      : {}),
    extensions,
  };
}
