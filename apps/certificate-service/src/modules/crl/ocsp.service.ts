import { Injectable } from '@nestjs/common';
import {
  isRevocationReason,
  ocspErrorResponse,
  parseOcspRequest,
  type OcspAnswer,
  type OcspCertId,
  type OcspCertStatus,
  type OcspResponder,
  type ParsedOcspRequest,
} from '@platform/pki';
import { IssuerRegistry } from '../ca/issuer-registry';
import { CertificatesRepository } from '../certificates/certificates.repository';

/** An OCSP answer is valid this long (nextUpdate - thisUpdate). */
export const OCSP_VALIDITY_MS = 10 * 60_000;

export interface OcspResult {
  readonly der: Buffer;
  /** Carried a nonce: the answer is for this request only (never cached). */
  readonly nonce: boolean;
  readonly nextUpdate?: Date;
}

/**
 * OCSP responder of the built-in issuing CA (RFC 6960): statuses come from the certificates
 * table at request time, so a revocation is visible at once; answers are signed with the
 * issuing CA key; the request nonce is echoed. A CertID naming another issuer, an unknown
 * serial or a certificate of another issuer is `unknown`; a malformed request gets the
 * `malformedRequest` status (no signature).
 */
@Injectable()
export class OcspService {
  constructor(
    private readonly certificates: CertificatesRepository,
    private readonly issuers: IssuerRegistry,
  ) {}

  async answer(requestDer: Buffer, now = new Date()): Promise<OcspResult> {
    let request: ParsedOcspRequest;
    try {
      request = parseOcspRequest(requestDer);
    } catch {
      return { der: ocspErrorResponse('malformedRequest'), nonce: false };
    }
    const issuer = this.issuers.builtIn();
    const responder = issuer.ocspResponder();
    const answers: OcspAnswer[] = [];
    for (const certId of request.certIds) {
      answers.push({ certId, status: await this.statusOf(responder, issuer.kind, certId) });
    }
    const thisUpdate = new Date(Math.floor(now.getTime() / 1000) * 1000);
    const nextUpdate = new Date(thisUpdate.getTime() + OCSP_VALIDITY_MS);
    const der = responder.respond({
      answers,
      thisUpdate,
      nextUpdate,
      ...(request.nonceExtension ? { nonceExtension: request.nonceExtension } : {}),
    });
    return { der, nonce: request.nonceExtension !== undefined, nextUpdate };
  }

  private async statusOf(
    responder: OcspResponder,
    issuerKind: string,
    certId: OcspCertId,
  ): Promise<OcspCertStatus> {
    if (certId.serial === undefined || !responder.issues(certId)) return { kind: 'unknown' };
    const row = await this.certificates.findBySerial(certId.serial);
    if (!row || row.issuerKind !== issuerKind) return { kind: 'unknown' };
    if (row.status !== 'revoked') return { kind: 'good' };
    const reason = row.revocationReason;
    return {
      kind: 'revoked',
      revokedAt: row.revokedAt ?? row.createdAt,
      ...(reason !== null && isRevocationReason(reason) ? { reason } : {}),
    };
  }
}
