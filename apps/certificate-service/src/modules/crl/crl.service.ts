import { Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import type { CrlSource, CurrentCrl } from '../enrollment/crl-source';
import { IssuerRegistry } from '../ca/issuer-registry';
import { CertificatesRepository } from '../certificates/certificates.repository';
import { isRevocationReason } from '@platform/pki';
import { CrlRepository, type StoredCrl } from './crl.repository';

/** A CRL is valid this long (nextUpdate - thisUpdate). */
export const CRL_VALIDITY_MS = 24 * 3600_000;
/** It is re-signed once less than this remains before nextUpdate. */
export const CRL_REFRESH_MARGIN_MS = 12 * 3600_000;

/**
 * The built-in CA's CRL, stored in `crl_state`: re-signed with a rising cRLNumber on every
 * revocation, lazily on read once due, and periodically before nextUpdate by the worker
 * (`refreshIfDue`). Also the `CRL_SOURCE` port of `POST /api/v1/enroll/crl`.
 */
@Injectable()
export class CrlService implements CrlSource {
  constructor(
    private readonly crls: CrlRepository,
    private readonly certificates: CertificatesRepository,
    private readonly issuers: IssuerRegistry,
  ) {}

  async current(): Promise<readonly CurrentCrl[]> {
    const crl = await this.latest();
    const issuer = new X509Certificate(this.issuers.builtIn().caCertificates().issuingDer).subject
      .split('\n')
      .join(', ');
    return [{ issuer, der: crl.der, thisUpdate: crl.thisUpdate, nextUpdate: crl.nextUpdate }];
  }

  /** The stored CRL, re-signed first when missing or due. */
  async latest(now = new Date()): Promise<StoredCrl> {
    const stored = await this.crls.latest();
    if (stored && stored.nextUpdate.getTime() - now.getTime() > CRL_REFRESH_MARGIN_MS) {
      return stored;
    }
    return this.publish();
  }

  /** Signs and stores a new CRL over every revoked, unexpired built-in certificate. */
  publish(): Promise<StoredCrl> {
    return this.crls.publish(async (crlNumber) => {
      const thisUpdate = new Date(Math.floor(Date.now() / 1000) * 1000);
      const nextUpdate = new Date(thisUpdate.getTime() + CRL_VALIDITY_MS);
      const issuer = this.issuers.builtIn();
      const rows = await this.certificates.revokedEntries(issuer.kind, thisUpdate);
      const der = issuer.buildCrl({
        crlNumber,
        thisUpdate,
        nextUpdate,
        entries: rows.map((r) => ({
          serial: r.serial,
          revokedAt: r.revokedAt,
          ...(r.reason !== null && isRevocationReason(r.reason) ? { reason: r.reason } : {}),
        })),
      });
      return { thisUpdate, nextUpdate, der };
    });
  }

  /** Re-signs the CRL when less than the refresh margin remains before its nextUpdate. */
  async refreshIfDue(now = new Date()): Promise<void> {
    await this.latest(now);
  }
}
