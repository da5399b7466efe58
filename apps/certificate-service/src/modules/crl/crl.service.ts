import { Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import type { CrlSource, CurrentCrl } from '../enrollment/crl-source';
import { IssuerRegistry } from '../ca/issuer-registry';
import { CertificatesRepository } from '../certificates/certificates.repository';
import { isRevocationReason } from '@platform/pki';
import { CrlRepository, type CrlAuthority, type StoredCrl } from './crl.repository';

/** A CRL is valid this long (nextUpdate - thisUpdate). */
export const CRL_VALIDITY_MS = 24 * 3600_000;
/** It is re-signed once less than this remains before nextUpdate. */
export const CRL_REFRESH_MARGIN_MS = 12 * 3600_000;
/** The root CA's CRL (revoked issuing CAs, normally none) is valid this long. */
export const ROOT_CRL_VALIDITY_MS = 7 * 24 * 3600_000;
/** ... and re-signed once less than this remains before its nextUpdate. */
export const ROOT_CRL_REFRESH_MARGIN_MS = 4 * 24 * 3600_000;

const MARGIN: Record<CrlAuthority, number> = {
  issuing: CRL_REFRESH_MARGIN_MS,
  root: ROOT_CRL_REFRESH_MARGIN_MS,
};

function subjectOf(der: Buffer): string {
  return new X509Certificate(der).subject.split('\n').join(', ');
}

/**
 * The built-in CA's CRLs: the issuing CA's, stored in `crl_state` and re-signed with a rising
 * cRLNumber on every revocation, and the root CA's, stored in `root_crl_state` (the issuing
 * CAs it revoked: none, this service never revokes its issuing CA). Both are re-signed lazily
 * on read once due, and periodically before nextUpdate by the worker (`refreshIfDue`). Also
 * the `CRL_SOURCE` port of `POST /api/v1/enroll/crl` (issuing CA first, then root).
 */
@Injectable()
export class CrlService implements CrlSource {
  constructor(
    private readonly crls: CrlRepository,
    private readonly certificates: CertificatesRepository,
    private readonly issuers: IssuerRegistry,
  ) {}

  async current(): Promise<readonly CurrentCrl[]> {
    const { issuingDer, rootDer } = this.issuers.builtIn().caCertificates();
    const [issuing, root] = [await this.latest(), await this.latest(new Date(), 'root')];
    return [
      { issuer: subjectOf(issuingDer), ...pick(issuing) },
      { issuer: subjectOf(rootDer), ...pick(root) },
    ];
  }

  /** The stored CRL, re-signed first when missing or due. */
  async latest(now = new Date(), authority: CrlAuthority = 'issuing'): Promise<StoredCrl> {
    const stored = await this.crls.latest(authority);
    const dueUntil = new Date(now.getTime() + MARGIN[authority]);
    if (stored && stored.nextUpdate > dueUntil) return stored;
    // Concurrent readers of a due CRL: the first re-signs, the others get its CRL.
    return authority === 'issuing' ? this.publish(dueUntil) : this.publishRoot(dueUntil);
  }

  /**
   * Signs and stores a new CRL over every revoked, unexpired built-in certificate (always, after
   * a revocation; with `unlessValidAfter`, only when the stored one is not valid beyond it).
   */
  publish(unlessValidAfter?: Date): Promise<StoredCrl> {
    return this.crls.publish(
      async (crlNumber) => {
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
      },
      'issuing',
      { unlessValidAfter },
    );
  }

  /** Signs and stores a new root CRL (no entry: the issuing CA is never revoked here). */
  publishRoot(unlessValidAfter?: Date): Promise<StoredCrl> {
    return this.crls.publish(
      (crlNumber) => {
        const thisUpdate = new Date(Math.floor(Date.now() / 1000) * 1000);
        const nextUpdate = new Date(thisUpdate.getTime() + ROOT_CRL_VALIDITY_MS);
        const der = this.issuers.signRootCrl({ crlNumber, thisUpdate, nextUpdate, entries: [] });
        return Promise.resolve({ thisUpdate, nextUpdate, der });
      },
      'root',
      { unlessValidAfter },
    );
  }

  /** Re-signs each CRL when less than its refresh margin remains before its nextUpdate. */
  async refreshIfDue(now = new Date()): Promise<void> {
    await this.latest(now);
    await this.latest(now, 'root');
  }
}

function pick(crl: StoredCrl): Omit<CurrentCrl, 'issuer'> {
  return { der: crl.der, thisUpdate: crl.thisUpdate, nextUpdate: crl.nextUpdate };
}
