import { Injectable } from '@nestjs/common';
import { formatSshCertificate } from '@platform/pki';
import { SshDisabledError } from '../../app/features/ssh-enabled.guard';
import type {
  IssuedSshCertificate,
  IssuedSshCertificateReader,
} from '../agent/issued-ssh-certificate-reader';
import { SshCaService } from './ssh-ca.service';
import { sshCertificateRef } from './ssh-certificate-profile';
import { SshCertificatesRepository } from './ssh-certificates.repository';

/** The agent module's port over `ssh_certificates` (`GET /requests/{id}/certificate`). */
@Injectable()
export class SshCertificateReader implements IssuedSshCertificateReader {
  constructor(
    private readonly certificates: SshCertificatesRepository,
    private readonly ca: SshCaService,
  ) {}

  async forRequest(requestId: string): Promise<IssuedSshCertificate | null> {
    // SSH switched off: the SSH routes answer 404 ssh_disabled, and so does this one.
    if (!this.ca.enabled) throw new SshDisabledError();
    const row = await this.certificates.forRequest(requestId);
    if (!row) return null;
    const ca = this.ca.ca();
    const certType = `${row.keyType}-cert-v01@openssh.com`;
    return {
      ref: sshCertificateRef(row.serial),
      serial: BigInt(row.serial),
      blob: row.certificate,
      certificateText: formatSshCertificate({ certType, blob: row.certificate }),
      caPublicKeyBlob: ca.publicKeyBlob,
      caPublicKey: ca.authorizedKey(),
      keyId: row.keyId,
      principals: row.principals,
      validAfter: row.validAfter,
      validBefore: row.validBefore,
    };
  }
}
