import { createHash } from 'node:crypto';
import { IssuingAuthority, signedStructure } from '../certificate/certificate-signer';
import { readCertificateInfo } from '../ca/certificate-info';
import { REVOCATION_REASON_CODES, RevocationReason } from '../crl/revocation-reason';
import { enumerated, octetString } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { readBitStringBytes, readChildren, readSingle } from '../der/der-reader';
import { generalizedTime } from '../der/der-time';
import { explicit, implicit, sequence, tlv } from '../der/der-tlv';
import { contextTag } from '../der/der-tag';
import { OCSP_OIDS, OcspCertId } from './ocsp-request';

export type OcspCertStatus =
  | { readonly kind: 'good' }
  | { readonly kind: 'revoked'; readonly revokedAt: Date; readonly reason?: RevocationReason }
  | { readonly kind: 'unknown' };

export interface OcspAnswer {
  readonly certId: OcspCertId;
  readonly status: OcspCertStatus;
}

export interface OcspResponseInput {
  readonly answers: readonly OcspAnswer[];
  readonly nonceExtension?: Buffer;
  readonly thisUpdate: Date;
  readonly nextUpdate: Date;
}

/** OCSPResponseStatus values other than successful (RFC 6960 4.2.1). */
export const OCSP_ERROR_STATUS = {
  malformedRequest: 1,
  internalError: 2,
  tryLater: 3,
  unauthorized: 6,
} as const;
export type OcspErrorStatus = keyof typeof OCSP_ERROR_STATUS;

/** An OCSPResponse without responseBytes. */
export function ocspErrorResponse(status: OcspErrorStatus): Buffer {
  return sequence(enumerated(OCSP_ERROR_STATUS[status]));
}

function certStatus(status: OcspCertStatus): Buffer {
  switch (status.kind) {
    case 'good':
      return implicit(0, false, Buffer.alloc(0));
    case 'unknown':
      return implicit(2, false, Buffer.alloc(0));
    case 'revoked': {
      const fields = [generalizedTime(status.revokedAt)];
      if (status.reason !== undefined && status.reason !== 'unspecified') {
        fields.push(explicit(0, enumerated(REVOCATION_REASON_CODES[status.reason])));
      }
      return tlv(contextTag(1, true), ...fields);
    }
  }
}

/**
 * The issuing CA as an OCSP responder (RFC 6960): it signs with its own key (no delegated
 * responder certificate), identifies itself by key hash, and recognises the CertIDs that
 * name it (issuer name and key hashed with the CertID's algorithm).
 */
export class OcspResponder {
  private readonly subjectPublicKey: Buffer;
  private readonly responderId: Buffer;
  private readonly hashes = new Map<string, { name: Buffer; key: Buffer }>();

  constructor(private readonly authority: IssuingAuthority) {
    const spki = readCertificateInfo(authority.certificateDer).spkiDer;
    this.subjectPublicKey = readBitStringBytes(readChildren(readSingle(spki))[1]);
    this.responderId = explicit(2, octetString(this.hash('sha1', this.subjectPublicKey)));
  }

  /** True when `certId` names this CA as the issuer. */
  issues(certId: OcspCertId): boolean {
    if (certId.hash === undefined) return false;
    let mine = this.hashes.get(certId.hash);
    if (!mine) {
      mine = {
        name: this.hash(certId.hash, this.authority.nameDer),
        key: this.hash(certId.hash, this.subjectPublicKey),
      };
      this.hashes.set(certId.hash, mine);
    }
    return certId.issuerNameHash.equals(mine.name) && certId.issuerKeyHash.equals(mine.key);
  }

  /** A successful OCSPResponse holding a BasicOCSPResponse signed by the CA. */
  respond(input: OcspResponseInput): Buffer {
    const responses = input.answers.map((answer) =>
      sequence(
        answer.certId.der,
        certStatus(answer.status),
        generalizedTime(input.thisUpdate),
        explicit(0, generalizedTime(input.nextUpdate)),
      ),
    );
    const tbs = sequence(
      this.responderId,
      generalizedTime(input.thisUpdate),
      sequence(...responses),
      ...(input.nonceExtension ? [explicit(1, sequence(input.nonceExtension))] : []),
    );
    const basic = signedStructure(tbs, this.authority.signer);
    return sequence(
      enumerated(0),
      explicit(0, sequence(oid(OCSP_OIDS.basicResponse), octetString(basic))),
    );
  }

  private hash(algorithm: string, data: Buffer): Buffer {
    return createHash(algorithm).update(data).digest();
  }
}
