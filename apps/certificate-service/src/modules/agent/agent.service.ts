import { Inject, Injectable, Optional } from '@nestjs/common';
import type { CertificateRequestEntity } from '../requests/certificate-request.entity';
import { IN_PROGRESS_REQUEST_STATUSES } from '../requests/request-status';
import { RequestsRepository } from '../requests/requests.repository';
import { DevicesRepository } from '../devices/devices.repository';
import type { IssuanceDirectiveEntity } from '../issuance-directives/issuance-directive.entity';
import { IssuanceDirectivesService } from '../issuance-directives/issuance-directives.service';
import { AgentError } from './agent.errors';
import { bundleVersion, sshBundleVersion } from './bundle-version';
import {
  ISSUED_CERTIFICATE_READER,
  type IssuedCertificate,
  type IssuedCertificateReader,
} from './issued-certificate-reader';
import {
  ISSUED_SSH_CERTIFICATE_READER,
  type IssuedSshCertificate,
  type IssuedSshCertificateReader,
} from './issued-ssh-certificate-reader';

export type DeliveredCertificate =
  | { kind: 'x509'; certificate: IssuedCertificate; version: string }
  | { kind: 'ssh'; certificate: IssuedSshCertificate; version: string };

/** What an agent may do with its own request. */
@Injectable()
export class AgentService {
  constructor(
    private readonly requests: RequestsRepository,
    private readonly directives: IssuanceDirectivesService,
    private readonly devices: DevicesRepository,
    @Optional()
    @Inject(ISSUED_CERTIFICATE_READER)
    private readonly certificates?: IssuedCertificateReader,
    @Optional()
    @Inject(ISSUED_SSH_CERTIFICATE_READER)
    private readonly sshCertificates?: IssuedSshCertificateReader,
  ) {}

  /** The issued certificate and its bundle version; 409 while undecided, 404 when none. */
  async certificate(request: CertificateRequestEntity): Promise<DeliveredCertificate> {
    if (IN_PROGRESS_REQUEST_STATUSES.includes(request.status)) {
      throw new AgentError('certificate_not_issued');
    }
    if (request.purpose === 'ssh') {
      const ssh =
        request.status === 'issued' && this.sshCertificates
          ? await this.sshCertificates.forRequest(request.id)
          : null;
      if (!ssh) throw new AgentError('certificate_not_found');
      return { kind: 'ssh', certificate: ssh, version: sshBundleVersion(ssh) };
    }
    const certificate =
      request.status === 'issued' && this.certificates
        ? await this.certificates.forRequest(request.id)
        : null;
    if (!certificate) throw new AgentError('certificate_not_found');
    return { kind: 'x509', certificate, version: bundleVersion(certificate) };
  }

  /**
   * The agent installed the certificate. The answer carries the device's open issuance
   * directives (pending ones become `delivered`) and whether the device is blocked (the agent
   * stops renewing until it is unblocked; docs/certificate-service/enrollment.md).
   */
  async checkin(
    request: CertificateRequestEntity,
    agentVersion: string | null,
  ): Promise<{ at: Date; directives: IssuanceDirectiveEntity[]; blocked: boolean }> {
    await this.certificate(request);
    const at = new Date();
    await this.requests.markInstalled(request.id, agentVersion, at);
    const directives = await this.directives.deliver(request.deviceId);
    const device = await this.devices.findById(request.deviceId);
    return { at, directives, blocked: device?.blocked === true };
  }
}
