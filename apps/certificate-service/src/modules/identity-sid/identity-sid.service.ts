import { Inject, Injectable, Logger } from '@nestjs/common';
import { SharedRateLimits } from '@platform/http';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { InvalidRequestError } from '../../app/errors/certsvc-error';
import { DeviceCredentials } from '../devices/device-credentials.service';
import { IdentityDirectoryService } from './identity-directory.service';
import { IdentitySidError } from './identity-sid.errors';
import { DirectoryUnavailable, lookupSid } from './ldap-directory';
import { upnProblem } from './upn';

const HOUR_SECONDS = 3600;

/**
 * `POST /api/v1/enroll/identity-sid`: a device with a valid enrollment token asks for the SID
 * of a UPN. Order: UPN shape (400), serial and token (401, the same for both), the device's
 * hourly budget (429), the directory configured (409), the look-up (200, 404, 503).
 */
@Injectable()
export class IdentitySidService {
  private readonly logger = new Logger('IdentitySid');

  constructor(
    private readonly credentials: DeviceCredentials,
    private readonly directory: IdentityDirectoryService,
    private readonly limits: SharedRateLimits,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  async lookup(serial: string, token: string, upn: string): Promise<{ upn: string; sid: string }> {
    const problem = upnProblem(upn);
    if (problem) throw new InvalidRequestError([{ field: 'upn', problems: [`upn ${problem}`] }]);
    const device = await this.credentials.authenticate(serial, token);
    const decision = await this.limits.hit(
      `identity-sid:${device.id}`,
      this.config.identitySid.perDevicePerHour,
      HOUR_SECONDS,
    );
    if (!decision.allowed) {
      throw new IdentitySidError('rate_limited', { retryAfterSeconds: decision.retryAfterSeconds });
    }
    const target = await this.directory.target();
    try {
      const outcome = await lookupSid(target, upn, { egress: this.config.identitySid.egress });
      if (outcome.kind === 'found') return { upn, sid: outcome.sid };
      if (outcome.kind === 'ambiguous') {
        this.logger.warn(
          `identity-sid: ${outcome.entries} directory entries match one UPN (or one without a readable SID); answered identity_not_found (serial ${serial})`,
        );
      }
      throw new IdentitySidError('identity_not_found');
    } catch (error) {
      if (!(error instanceof DirectoryUnavailable)) throw error;
      this.logger.warn(
        `identity-sid: directory unavailable at ${error.step}: ${error.message} (serial ${serial})`,
      );
      throw new IdentitySidError('identity_directory_unavailable');
    }
  }
}
