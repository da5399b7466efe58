import type { CertificateEntity } from '../certificates/certificate.entity';
import type { SshCertificateEntity } from './ssh-certificate.entity';
import { sshCertificateRef } from './ssh-certificate-profile';

/**
 * An SSH certificate in the shape the certificate routes answer with (`CertificateDto`):
 * serial `ssh-<serial>`, purpose `ssh`, subject = key id, validity, status, issuer `ssh_ca`.
 */
export function sshCertificateRecord(row: SshCertificateEntity): CertificateEntity {
  return {
    serial: sshCertificateRef(row.serial),
    requestId: row.requestId,
    deviceId: row.deviceId,
    purpose: 'ssh',
    subject: row.keyId,
    userIdentity: row.owner,
    notBefore: row.validAfter,
    notAfter: row.validBefore,
    der: row.certificate,
    status: row.status,
    revokedAt: row.revokedAt,
    revocationReason: row.revocationReason,
    issuerKind: 'ssh_ca',
    keyProtection: 'none',
    supersededAt: null,
    supersededBy: null,
    chainPem: null,
    createdAt: row.createdAt,
  };
}
