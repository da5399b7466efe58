import { setImmediate as nextTick } from 'node:timers/promises';
import { LoadedIssuingCa } from '../ca/issuing-ca';
import { LeafBuilderOptions, LeafCertificateBuilder } from '../certificate/leaf-builder';
import { X509_PURPOSES } from '../certificate/purposes';
import { normalizeSerialHex } from '../certificate/serial-number';
import { SubjectAltName } from '../certificate/subject-alt-names';
import { CrlInput, encodeCrl } from '../crl/crl-encoder';
import { isRevocationReason, RevocationReason } from '../crl/revocation-reason';
import { OcspResponder } from '../ocsp/ocsp-response';
import { PkiError } from '../pki.errors';
import {
  CertificateIssuer,
  IssueManyOutcome,
  IssueOutcome,
  IssueRequest,
  IssuerCapabilities,
  RevokeOutcome,
} from './certificate-issuer';
import { failedRow } from './issue-many';

/** Certificates issued between two yields to the event loop in `issueMany`. */
const BATCH_SLICE = 64;

/**
 * The default issuer: signs synchronously with the built-in issuing CA. Revocation is
 * recorded by the caller; `buildCrl` signs a CRL over the entries the caller supplies.
 */
export class BuiltInCaIssuer implements CertificateIssuer {
  readonly kind = 'built_in';
  private readonly builder: LeafCertificateBuilder;
  private responder: OcspResponder | undefined;

  constructor(
    private readonly ca: LoadedIssuingCa,
    options: LeafBuilderOptions = {},
  ) {
    this.builder = new LeafCertificateBuilder(ca, options);
  }

  capabilities(): IssuerCapabilities {
    return {
      kind: this.kind,
      async: false,
      supportsRevoke: true,
      supportsCrl: true,
      purposes: X509_PURPOSES,
    };
  }

  issue(request: IssueRequest): Promise<IssueOutcome> {
    try {
      return Promise.resolve(this.issueNow(request));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async issueMany(requests: readonly IssueRequest[]): Promise<IssueManyOutcome[]> {
    const outcomes: IssueManyOutcome[] = [];
    for (let i = 0; i < requests.length; i++) {
      if (i > 0 && i % BATCH_SLICE === 0) await nextTick();
      const request = requests[i];
      try {
        outcomes.push({ requestId: request.requestId, ...this.issueNow(request) });
      } catch (error) {
        outcomes.push(failedRow(request.requestId, error));
      }
    }
    return outcomes;
  }

  revoke(serial: string, reason: RevocationReason): Promise<RevokeOutcome> {
    const normalized = normalizeSerialHex(serial);
    if (normalized === undefined || !isRevocationReason(reason)) {
      return Promise.reject(new PkiError('crl_invalid', 'invalid serial or revocation reason'));
    }
    return Promise.resolve({
      status: 'revoked',
      serial: normalized,
      reason,
      revokedAt: new Date(),
      crlUpdateRequired: true,
    });
  }

  /** DER CRL over the revoked entries the caller keeps. */
  buildCrl(input: CrlInput): Buffer {
    return encodeCrl(this.ca, input);
  }

  /** The issuing CA as OCSP responder (signs with the issuing CA key). */
  ocspResponder(): OcspResponder {
    this.responder ??= new OcspResponder(this.ca);
    return this.responder;
  }

  /** Root and issuing CA certificates (public). */
  caCertificates(): { readonly rootDer: Buffer; readonly issuingDer: Buffer } {
    return { rootDer: this.ca.rootCertificateDer, issuingDer: this.ca.certificateDer };
  }

  private issueNow(request: IssueRequest): IssueOutcome {
    const sans: SubjectAltName[] = [...(request.subjectAltNames ?? [])];
    if (request.userPrincipalName !== undefined) {
      sans.push({ type: 'upn', value: request.userPrincipalName });
    }
    const leaf = this.builder.issue({
      purpose: request.purpose,
      subjectCommonName: request.subjectCommonName,
      publicKeySpkiDer: request.csr.publicKeySpkiDer,
      keyAlgorithm: request.csr.keyAlgorithm,
      subjectAltNames: sans,
      ...(request.sid === undefined ? {} : { sid: request.sid }),
      ...(request.now === undefined ? {} : { now: request.now }),
    });
    return { status: 'issued', ...leaf, chainDer: this.ca.chainDer };
  }
}
