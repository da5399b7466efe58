import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { answerInvalid, parseAsn1 } from './scep-asn1';
import { SCEP_FAIL_INFO, ScepMessageType, ScepOids, ScepPkiStatus } from './scep-constants';
import { envelope, openEnvelope, type EnvelopeRecipient } from './scep-envelope';
import {
  openSignedMessage,
  readDegenerateCertificates,
  signMessage,
  type MessageSigner,
  type ScepHash,
} from './scep-signed';

/** How a request is protected, from the CA's capabilities. */
export interface ScepProtection {
  readonly hash: ScepHash;
  readonly cipherOid: string;
}

/** RFC 8894: transactionID from a hash of the public key (hex here). */
export function transactionIdOf(publicKeySpkiDer: Buffer): string {
  return createHash('sha256').update(publicKeySpkiDer).digest('hex').toUpperCase();
}

export function newSenderNonce(): Buffer {
  return randomBytes(16);
}

export interface OutgoingMessage {
  readonly transactionId: string;
  readonly senderNonce: Buffer;
  readonly recipientDer: Buffer;
  readonly signer: MessageSigner;
  readonly protection: ScepProtection;
}

function challengeAttribute(password: string): pkijs.Attribute {
  const printable = /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(password);
  return new pkijs.Attribute({
    type: ScepOids.challengePassword,
    values: [
      printable
        ? new asn1js.PrintableString({ value: password })
        : new asn1js.Utf8String({ value: password }),
    ],
  });
}

function pkiMessage(
  messageType: string,
  inner: Buffer,
  out: OutgoingMessage,
  extra: readonly pkijs.Attribute[] = [],
): Buffer {
  const enveloped = envelope(inner, out.recipientDer, out.protection.cipherOid);
  return signMessage(
    enveloped,
    [
      [ScepOids.messageType, messageType],
      [ScepOids.transactionId, out.transactionId],
      [ScepOids.senderNonce, out.senderNonce],
    ],
    out.signer,
    out.protection.hash,
    extra,
  );
}

/**
 * PKCSReq: the device's CSR, encrypted to the CA/RA and signed by the requester. A configured
 * challenge password goes in as an authenticated attribute (the CSR is the device's and
 * cannot be changed; see docs/certificate-service/scep.md).
 */
export function buildPkcsReq(
  csrDer: Buffer,
  out: OutgoingMessage,
  challengePassword?: string,
): Buffer {
  const extra = challengePassword ? [challengeAttribute(challengePassword)] : [];
  return pkiMessage(ScepMessageType.PKCSReq, csrDer, out, extra);
}

/** CertPoll (GetCertInitial): IssuerAndSubject, same transactionID as the PKCSReq. */
export function buildCertPoll(
  issuerNameDer: Buffer,
  subjectNameDer: Buffer,
  out: OutgoingMessage,
): Buffer {
  const issuerAndSubject = new asn1js.Sequence({
    value: [parseAsn1(issuerNameDer, 'issuer name'), parseAsn1(subjectNameDer, 'subject name')],
  });
  return pkiMessage(ScepMessageType.CertPoll, Buffer.from(issuerAndSubject.toBER(false)), out);
}

export type CertRep =
  | { readonly status: 'SUCCESS'; readonly certificatesDer: readonly Buffer[] }
  | { readonly status: 'PENDING' }
  | { readonly status: 'FAILURE'; readonly reason: string };

export interface CertRepExpectations {
  /** The CA/RA signing certificate from GetCACert. */
  readonly signerDer: Buffer;
  readonly transactionId: string;
  readonly senderNonce: Buffer;
  readonly requester: EnvelopeRecipient;
}

/**
 * Reads a CertRep: signature by the CA/RA certificate, messageType, the same transactionID,
 * recipientNonce equal to our senderNonce; on SUCCESS the enveloped degenerate PKCS#7
 * decrypted with the requester key. Anything else is a `scep_answer_invalid`.
 */
export function readCertRep(der: Buffer, expected: CertRepExpectations): CertRep {
  const message = openSignedMessage(der, expected.signerDer, 'the CertRep');
  const attr = (oid: string): string | Buffer | undefined => message.attributes.get(oid);
  if (attr(ScepOids.messageType) !== ScepMessageType.CertRep) {
    throw answerInvalid(
      `the answer is not a CertRep (messageType ${String(attr(ScepOids.messageType))})`,
    );
  }
  if (attr(ScepOids.transactionId) !== expected.transactionId) {
    throw answerInvalid('the CertRep carries another transactionID than the request');
  }
  const recipientNonce = attr(ScepOids.recipientNonce);
  if (!Buffer.isBuffer(recipientNonce) || !recipientNonce.equals(expected.senderNonce)) {
    throw answerInvalid(
      'the CertRep recipientNonce is not the senderNonce of the request (replay?)',
    );
  }
  const status = attr(ScepOids.pkiStatus);
  if (status === ScepPkiStatus.PENDING) return { status: 'PENDING' };
  if (status === ScepPkiStatus.FAILURE) {
    const info = attr(ScepOids.failInfo);
    const text = attr(ScepOids.failInfoText);
    const meaning =
      typeof info === 'string' ? (SCEP_FAIL_INFO[info] ?? `failInfo ${info}`) : 'no failInfo given';
    const reason =
      typeof text === 'string' && text.length > 0 ? `${meaning} (${text.slice(0, 200)})` : meaning;
    return { status: 'FAILURE', reason };
  }
  if (status !== ScepPkiStatus.SUCCESS) {
    throw answerInvalid(`the CertRep has an unknown pkiStatus ${String(status)}`);
  }
  if (!message.content) throw answerInvalid('the SUCCESS CertRep carries no certificate');
  const inner = openEnvelope(message.content, expected.requester, 'the CertRep content');
  const certificatesDer = readDegenerateCertificates(inner, 'the CertRep content');
  if (certificatesDer.length === 0)
    throw answerInvalid('the SUCCESS CertRep carries no certificate');
  return { status: 'SUCCESS', certificatesDer };
}
