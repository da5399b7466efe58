import { X509Certificate } from 'node:crypto';
import { readCertificateInfo } from '../ca/certificate-info';
import { X509_PURPOSES, type X509Purpose } from '../certificate/purposes';
import { normalizeSerialHex } from '../certificate/serial-number';
import { isRevocationReason, type RevocationReason } from '../crl/revocation-reason';
import { PkiError } from '../pki.errors';
import type {
  CertificateIssuer,
  IssueManyOutcome,
  IssueOutcome,
  IssueRequest,
  IssuerCapabilities,
  RevokeOutcome,
} from '../issuer/certificate-issuer';
import { failedRow } from '../issuer/issue-many';
import { EstClient } from './est-client';
import type { EstIssuerConfig } from './est-config';
import type { EstHttp } from './est-http';

/**
 * An issuer backed by an EST server (RFC 7030). The service is the EST client (a registration
 * authority): it forwards the device's CSR unchanged, so the EST CA decides subject and
 * extensions. `simplereenroll` is sent for a renewal (`IssueRequest.renewalOf`: the device
 * holds a certificate of the purpose from an EST issuer), `simpleenroll` otherwise.
 *
 * Every answer is checked before it counts as issued: a certs-only PKCS#7, a certificate whose
 * public key is the CSR's, signed by a CA of `/cacerts`. A 202 (deferred enrollment) is refused
 * (`est_pending_unsupported`): this issuer is synchronous. EST has no revoke operation:
 * `revoke` answers `unsupported` (revoke at the CA by hand).
 */
export class EstIssuer implements CertificateIssuer {
  readonly kind = 'est';
  private readonly client: EstClient;

  constructor(
    config: EstIssuerConfig,
    http: EstHttp,
    private readonly purposes: readonly X509Purpose[] = X509_PURPOSES,
  ) {
    this.client = new EstClient(config, http);
  }

  capabilities(): IssuerCapabilities {
    return {
      kind: this.kind,
      async: false,
      supportsRevoke: false,
      supportsCrl: false,
      purposes: this.purposes,
    };
  }

  /** The EST CA's certificates (`/cacerts`). */
  caCertificates(): Promise<Buffer[]> {
    return this.client.caCertificates();
  }

  async issue(request: IssueRequest): Promise<IssueOutcome> {
    return this.issueWith(request, await this.client.caCertificates());
  }

  async issueMany(requests: readonly IssueRequest[]): Promise<IssueManyOutcome[]> {
    let caCertificates: Buffer[] | PkiError | undefined;
    const outcomes: IssueManyOutcome[] = [];
    for (const request of requests) {
      try {
        if (caCertificates === undefined) {
          caCertificates = await this.client.caCertificates().catch((error: unknown) => {
            if (error instanceof PkiError) return error;
            throw error;
          });
        }
        if (caCertificates instanceof PkiError) throw caCertificates;
        outcomes.push({
          requestId: request.requestId,
          ...(await this.issueWith(request, caCertificates)),
        });
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
    return Promise.resolve({ status: 'unsupported', serial: normalized });
  }

  private async issueWith(
    request: IssueRequest,
    caCertificates: readonly Buffer[],
  ): Promise<IssueOutcome> {
    const operation = request.renewalOf === undefined ? 'simpleenroll' : 'simplereenroll';
    const answered = await this.client.enroll(operation, request.csr.der);
    return checkIssued(answered, request.csr.publicKeySpkiDer, caCertificates);
  }
}

/**
 * The certificate of the answer whose key is the CSR's, verified against the EST CA: its
 * issuer among `/cacerts` and its signature valid. Chain: issuing CA first, root last.
 */
export function checkIssued(
  answered: readonly Buffer[],
  csrSpkiDer: Buffer,
  caCertificates: readonly Buffer[],
): Extract<IssueOutcome, { status: 'issued' }> {
  try {
    return checkIssuedNow(answered, csrSpkiDer, caCertificates);
  } catch (error) {
    if (error instanceof PkiError && error.code.startsWith('est_')) throw error;
    throw new PkiError('est_answer_invalid', 'the EST answer holds an unreadable certificate');
  }
}

function checkIssuedNow(
  answered: readonly Buffer[],
  csrSpkiDer: Buffer,
  caCertificates: readonly Buffer[],
): Extract<IssueOutcome, { status: 'issued' }> {
  const leafDer = answered.find((der) => readCertificateInfo(der).spkiDer.equals(csrSpkiDer));
  if (!leafDer) {
    throw new PkiError(
      'est_key_mismatch',
      'the EST server answered a certificate for another key than the CSR',
    );
  }
  const cas = caCertificates.map((der) => ({ der, x509: new X509Certificate(der) }));
  const chain: Buffer[] = [];
  let current = new X509Certificate(leafDer);
  for (let depth = 0; depth < cas.length; depth++) {
    const parent = cas.find(
      (ca) => current.checkIssued(ca.x509) && current.verify(ca.x509.publicKey),
    );
    if (!parent) break;
    if (chain.some((der) => der.equals(parent.der))) break;
    if (parent.der.equals(current.raw)) break;
    chain.push(parent.der);
    current = parent.x509;
  }
  if (chain.length === 0) {
    throw new PkiError(
      'est_answer_invalid',
      'the certificate the EST server answered is not signed by a CA of its /cacerts',
    );
  }
  const info = readCertificateInfo(leafDer);
  const serial = normalizeSerialHex(info.serial);
  if (serial === undefined) throw new PkiError('est_answer_invalid', 'certificate serial invalid');
  return {
    status: 'issued',
    certificateDer: leafDer,
    chainDer: chain,
    serial,
    notBefore: info.notBefore,
    notAfter: info.notAfter,
  };
}
