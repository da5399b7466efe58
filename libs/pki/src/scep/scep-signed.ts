import { createHash, sign, verify, X509Certificate, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PkiError } from '../pki.errors';
import {
  algorithm,
  answerInvalid,
  attributeValue,
  contentInfoDer,
  identifies,
  issuerAndSerial,
  octets,
  pkijsCertificate,
  readContentInfo,
  toDer,
} from './scep-asn1';
import { HASH_BY_OID, ScepOids } from './scep-constants';

/**
 * CMS SignedData of SCEP pkiMessages: built and read with pkijs, signed and verified with
 * node:crypto over the DER of the authenticated attributes.
 */

export type ScepHash = 'sha1' | 'sha256';

export interface MessageSigner {
  readonly certificateDer: Buffer;
  readonly privateKey: KeyObject;
}

/** One authenticated attribute: a PrintableString (string) or an OCTET STRING (Buffer). */
export type AttributeInput = readonly [oid: string, value: string | Buffer];

const SIGNATURE_OIDS: Record<ScepHash, { rsa: string; ec: string }> = {
  sha1: { rsa: ScepOids.sha1WithRsa, ec: '1.2.840.10045.4.1' },
  sha256: { rsa: ScepOids.sha256WithRsa, ec: '1.2.840.10045.4.3.2' },
};

function attribute(oid: string, value: asn1js.AsnType): pkijs.Attribute {
  return new pkijs.Attribute({ type: oid, values: [value] });
}

function scepValue(value: string | Buffer): asn1js.AsnType {
  return typeof value === 'string'
    ? new asn1js.PrintableString({ value })
    : new asn1js.OctetString({ valueHex: value });
}

function sortedByDer(attributes: pkijs.Attribute[]): pkijs.Attribute[] {
  const encoded = attributes.map((a) => ({ a, der: toDer(a.toSchema()) }));
  return encoded.sort((x, y) => Buffer.compare(x.der, y.der)).map((e) => e.a);
}

/** SignedData (ContentInfo DER) over `content` (absent: no eContent) with SCEP attributes. */
export function signMessage(
  content: Buffer | undefined,
  attributes: readonly AttributeInput[],
  signer: MessageSigner,
  hash: ScepHash,
  extraAttributes: readonly pkijs.Attribute[] = [],
): Buffer {
  const digest = createHash(hash)
    .update(content ?? Buffer.alloc(0))
    .digest();
  // DER orders a SET OF by the encodings; verifiers that re-encode (Go) need that order.
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: sortedByDer([
      attribute(ScepOids.contentType, new asn1js.ObjectIdentifier({ value: ScepOids.data })),
      attribute(ScepOids.signingTime, new asn1js.UTCTime({ valueDate: new Date() })),
      attribute(ScepOids.messageDigest, new asn1js.OctetString({ valueHex: digest })),
      ...attributes.map(([oid, value]) => attribute(oid, scepValue(value))),
      ...extraAttributes,
    ]),
  });
  const toSign = toDer(signedAttrs.toSchema());
  toSign[0] = 0x31; // signed as SET OF, sent as [0] IMPLICIT
  const signature = sign(hash, toSign, signer.privateKey);
  const certificate = pkijsCertificate(signer.certificateDer);
  const keyType = signer.privateKey.asymmetricKeyType === 'ec' ? 'ec' : 'rsa';
  const hashOid = hash === 'sha1' ? ScepOids.sha1 : ScepOids.sha256;
  const signed = new pkijs.SignedData({
    version: 1,
    digestAlgorithms: [algorithm(hashOid, new asn1js.Null())],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: ScepOids.data,
      ...(content === undefined ? {} : { eContent: new asn1js.OctetString({ valueHex: content }) }),
    }),
    certificates: [certificate],
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: issuerAndSerial(certificate),
        digestAlgorithm: algorithm(hashOid, new asn1js.Null()),
        signedAttrs,
        signatureAlgorithm: algorithm(
          SIGNATURE_OIDS[hash][keyType],
          keyType === 'rsa' ? new asn1js.Null() : undefined,
        ),
        signature: new asn1js.OctetString({ valueHex: signature }),
      }),
    ],
  });
  return contentInfoDer(ScepOids.signedData, signed);
}

/** A verified pkiMessage: its attributes by OID and its content (absent when none). */
export interface OpenedMessage {
  readonly attributes: ReadonlyMap<string, string | Buffer>;
  readonly content: Buffer | undefined;
  /** Certificates the message carried (DER), e.g. the requester's self-signed one. */
  readonly certificates: readonly Buffer[];
}

/**
 * Verifies a pkiMessage against `signerDer` (the CA/RA certificate from GetCACert; a message
 * signed by any other key is refused, whatever certificates it carries).
 */
export function openSignedMessage(
  der: Buffer,
  signerDer: Buffer | undefined,
  what: string,
): OpenedMessage {
  let signed: pkijs.SignedData;
  try {
    signed = new pkijs.SignedData({ schema: readContentInfo(der, ScepOids.signedData, what) });
  } catch (error) {
    if (error instanceof PkiError) throw error;
    throw answerInvalid(`${what} is not a PKCS#7 SignedData`);
  }
  const certificates = (signed.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => toDer(c.toSchema()));
  const signerInfo = signed.signerInfos[0];
  if (signed.signerInfos.length !== 1 || !signerInfo?.signedAttrs) {
    throw answerInvalid(`${what} must carry exactly one signer with authenticated attributes`);
  }
  const signerCertDer =
    signerDer ?? certificates.find((c) => identifies(signerInfo.sid, pkijsCertificate(c)));
  if (!signerCertDer || !identifies(signerInfo.sid, pkijsCertificate(signerCertDer))) {
    throw answerInvalid(`${what} is not signed by the CA/RA certificate from GetCACert`);
  }
  const hash = HASH_BY_OID[signerInfo.digestAlgorithm.algorithmId];
  if (!hash) throw answerInvalid(`${what} uses an unsupported digest algorithm`);
  const attributes = new Map<string, string | Buffer>();
  for (const attr of signerInfo.signedAttrs.attributes) {
    const value = attributeValue(attr.values[0]);
    if (value !== undefined) attributes.set(attr.type, value);
  }
  const signedBytes = Buffer.from(signerInfo.signedAttrs.encodedValue);
  signedBytes[0] = 0x31;
  const publicKey = new X509Certificate(signerCertDer).publicKey;
  const signature = Buffer.from(signerInfo.signature.valueBlock.valueHexView);
  let valid = false;
  try {
    valid = verify(hash, signedBytes, publicKey, signature);
  } catch {
    valid = false;
  }
  if (!valid) throw answerInvalid(`${what} has an invalid signature (not the CA/RA key)`);
  const eContent = signed.encapContentInfo.eContent;
  const content = eContent === undefined ? undefined : octets(eContent);
  const digest = createHash(hash)
    .update(content ?? Buffer.alloc(0))
    .digest();
  const claimed = attributes.get(ScepOids.messageDigest);
  if (!Buffer.isBuffer(claimed) || !claimed.equals(digest)) {
    throw answerInvalid(`${what} content does not match its signed message digest`);
  }
  return { attributes, content, certificates };
}

/** Degenerate certs-only SignedData (ContentInfo DER), as GetCACert and CertRep carry. */
export function degenerateCertificates(certificatesDer: readonly Buffer[]): Buffer {
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: ScepOids.data }),
    certificates: certificatesDer.map(pkijsCertificate),
    signerInfos: [],
  });
  return contentInfoDer(ScepOids.signedData, signed);
}

/** The certificates (DER) of a degenerate certs-only SignedData. */
export function readDegenerateCertificates(der: Buffer, what: string): Buffer[] {
  try {
    const signed = new pkijs.SignedData({
      schema: readContentInfo(der, ScepOids.signedData, what),
    });
    const certs = (signed.certificates ?? [])
      .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
      .map((c) => toDer(c.toSchema()));
    for (const cert of certs) new X509Certificate(cert);
    return certs;
  } catch (error) {
    if (error instanceof PkiError) throw error;
    throw answerInvalid(`${what} is not a degenerate PKCS#7 of certificates`);
  }
}
