import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { Actor } from '../../app/access/actor';
import { IssuerRegistry } from '../ca/issuer-registry';
import { buildCertificateBundle, normalizeSerialHex } from '@platform/pki';
import type { CertificateEntity } from './certificate.entity';
import type { KeyProtectionLevel } from './certificate-status';
import { CertificatesError } from './certificates.errors';
import { CertificatesRepository } from './certificates.repository';
import {
  CertificateListRepository,
  type CertificateFilter,
  type CertificateListRow,
} from './certificate-list.repository';

/** Reading certificates (the admin list, one certificate, its bundle) and the key-protection step. */
@Injectable()
export class CertificatesService {
  constructor(
    private readonly certificates: CertificatesRepository,
    private readonly issuers: IssuerRegistry,
    private readonly audit: AuditService,
    private readonly listing: CertificateListRepository,
  ) {}

  /** The admin list, newest first. */
  list(
    filter: CertificateFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: CertificateListRow[]; total: number }> {
    return this.listing.list(filter, limit, offset);
  }

  /** One certificate with its device serial (no DER). */
  async describe(serial: string): Promise<CertificateListRow> {
    const normalized = normalizeSerialHex(serial);
    const row = normalized ? await this.listing.find(normalized) : null;
    if (!row) throw new CertificatesError('certificate_not_found');
    return row;
  }

  async find(serial: string): Promise<CertificateEntity> {
    const normalized = normalizeSerialHex(serial);
    const row = normalized ? await this.certificates.findBySerial(normalized) : null;
    if (!row) throw new CertificatesError('certificate_not_found');
    return row;
  }

  /** ZIP with certificate.pem, chain.pem, fullchain.pem and ca.pem (no private key). */
  async bundle(serial: string): Promise<{ serial: string; zip: Buffer }> {
    const row = await this.find(serial);
    const zip = buildCertificateBundle({
      certificateDer: row.der,
      chainDer: this.issuers.chainFor(row.chainPem),
      modifiedAt: row.notBefore,
    });
    return { serial: row.serial, zip };
  }

  async setKeyProtection(
    actor: Actor,
    serial: string,
    level: KeyProtectionLevel,
  ): Promise<CertificateEntity> {
    const row = await this.find(serial);
    const previous = row.keyProtection;
    await this.certificates.setKeyProtection(row.serial, level);
    await this.audit.record({
      action: 'certificate.key_protection_change',
      actor,
      target: row.serial,
      details: { old: previous, new: level },
    });
    return { ...row, keyProtection: level };
  }
}
