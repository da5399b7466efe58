import { Injectable } from '@nestjs/common';
import type {
  IssuedCertificate,
  IssuedCertificateReader,
} from '../agent/issued-certificate-reader';
import { IssuerRegistry } from '../ca/issuer-registry';
import { CertificatesRepository } from './certificates.repository';

/** The agent module's port over the `certificates` table (`GET /requests/{id}/certificate`). */
@Injectable()
export class CertificateTableReader implements IssuedCertificateReader {
  constructor(
    private readonly certificates: CertificatesRepository,
    private readonly issuers: IssuerRegistry,
  ) {}

  async forRequest(requestId: string): Promise<IssuedCertificate | null> {
    const row = await this.certificates.latestForRequest(requestId);
    if (!row) return null;
    return {
      serial: row.serial,
      certificateDer: row.der,
      chainDer: this.issuers.chainFor(row.chainPem),
      notBefore: row.notBefore,
      notAfter: row.notAfter,
    };
  }
}
