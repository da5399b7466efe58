import { Injectable } from '@nestjs/common';
import type { CertificateEntity } from '../certificates/certificate.entity';
import { CertificatesRepository } from '../certificates/certificates.repository';
import { IssuerRegistry } from '../ca/issuer-registry';
import { CrlService } from '../crl/crl.service';
import { isX509Purpose, PkiError, type RevocationReason } from '@platform/pki';

export type RevocationRowOutcome =
  | {
      serial: string;
      status: 'revoked';
      /**
       * True when the issuer configured for the purpose has no revoke operation (SCEP): the
       * row is marked revoked here, the certificate stays valid at the CA (revoke it there by
       * hand). docs/certificate-service/revocation.md.
       */
      caRevokeUnsupported?: true;
    }
  | { serial: string; status: 'error'; error: string };

/** The warning the answers carry with `ca_revoke_unsupported`. */
export const CA_REVOKE_UNSUPPORTED_WARNING =
  'marked revoked in this service only: the issuer configured for this purpose (SCEP) cannot revoke, so the certificate stays valid at the external CA until it is revoked there by hand';

/**
 * Revokes certificates at the issuer configured for their purpose now, records the
 * successes in one UPDATE and re-signs the CRL (rising cRLNumber) when anything changed.
 * An issuer without revoke (SCEP) answers `unsupported`: the row is marked revoked here with
 * `caRevokeUnsupported` (the spec's second behaviour; the CA is told nothing).
 */
@Injectable()
export class CertificateRevoker {
  constructor(
    private readonly certificates: CertificatesRepository,
    private readonly issuers: IssuerRegistry,
    private readonly crl: CrlService,
  ) {}

  async revoke(
    rows: readonly CertificateEntity[],
    reason: RevocationReason,
  ): Promise<RevocationRowOutcome[]> {
    const outcomes: RevocationRowOutcome[] = [];
    const revoked: string[] = [];
    await this.issuers.ensureFresh();
    for (const row of rows) {
      const outcome = await this.revokeAtIssuer(row, reason);
      outcomes.push(outcome);
      if (outcome.status === 'revoked') revoked.push(row.serial);
    }
    if (revoked.length > 0) {
      await this.certificates.markRevoked(revoked, reason, new Date());
      await this.crl.publish();
    }
    return outcomes;
  }

  private async revokeAtIssuer(
    row: CertificateEntity,
    reason: RevocationReason,
  ): Promise<RevocationRowOutcome> {
    if (!isX509Purpose(row.purpose))
      return { serial: row.serial, status: 'error', error: 'purpose_unsupported' };
    try {
      const result = await this.issuers.forPurpose(row.purpose).revoke(row.serial, reason);
      return result.status === 'revoked'
        ? { serial: row.serial, status: 'revoked' }
        : { serial: row.serial, status: 'revoked', caRevokeUnsupported: true };
    } catch (error) {
      return {
        serial: row.serial,
        status: 'error',
        error: error instanceof PkiError ? error.code : 'issuer_revoke_failed',
      };
    }
  }
}
