import {
  PkiError,
  X509_PURPOSES,
  normalizeSerialHex,
  type CertificateIssuer,
  type IssueManyOutcome,
  type IssueOutcome,
  type IssueRequest,
  type IssuerCapabilities,
  type RevokeOutcome,
} from '@platform/pki';

/**
 * The issuer of a purpose whose kind cannot issue yet: `CERTSVC_ISSUER=scep|est` without a
 * stored profile, or a profile whose secrets cannot be opened. Every issue fails with
 * `issuer_not_configured` naming the problem; nothing is signed by another CA instead.
 */
export class UnavailableIssuer implements CertificateIssuer {
  constructor(
    readonly kind: string,
    readonly problem: string,
  ) {}

  capabilities(): IssuerCapabilities {
    return {
      kind: this.kind,
      async: this.kind === 'scep',
      supportsRevoke: false,
      supportsCrl: false,
      purposes: X509_PURPOSES,
    };
  }

  issue(_request: IssueRequest): Promise<IssueOutcome> {
    return Promise.reject(new PkiError('issuer_not_configured', this.problem));
  }

  issueMany(requests: readonly IssueRequest[]): Promise<IssueManyOutcome[]> {
    return Promise.resolve(
      requests.map((request) => ({
        requestId: request.requestId,
        status: 'error' as const,
        code: 'issuer_not_configured' as const,
        message: this.problem,
      })),
    );
  }

  revoke(serial: string): Promise<RevokeOutcome> {
    return Promise.resolve({ status: 'unsupported', serial: normalizeSerialHex(serial) ?? serial });
  }
}
