import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setSerial } from '../../app/request-context/request-context';
import { DeviceCredentials } from '../devices/device-credentials.service';
import { DevicesRepository } from '../devices/devices.repository';
import { purposeAllowed } from '../devices/purpose-access';
import { csrColumns } from '../requests/request-writes.repository';
import { parseCsr } from '@platform/pki';
import { issueAgentSecret } from './agent-secret';
import { EnrollmentError } from './enrollment.errors';
import { EnrollmentRepository } from './enrollment.repository';

export type UserPurpose = 'user_mtls' | 'ad_logon';

export interface UserEnrollInput {
  serial: string;
  enrollmentToken: string;
  csr: string;
  purpose: UserPurpose;
  user: string;
  upn?: string;
  sid?: string;
  agentVersion?: string;
}

/** `POST /enroll/user`: a user request (`user_mtls`, `ad_logon`) on a known device. */
@Injectable()
export class UserEnrollmentService {
  constructor(
    private readonly repository: EnrollmentRepository,
    private readonly devices: DevicesRepository,
    private readonly credentials: DeviceCredentials,
  ) {}

  async enroll(input: UserEnrollInput): Promise<{ requestId: string; agentSecret: string }> {
    setSerial(input.serial);
    const device = await this.credentials.authenticate(input.serial, input.enrollmentToken);
    const csr = parseCsr(input.csr);
    const overrides = (await this.devices.overridesOf([device.id])).get(device.id) ?? {};
    if (!purposeAllowed(input.purpose, device.assignedPurposes, overrides)) {
      throw new EnrollmentError('purpose_not_assigned');
    }
    const secret = issueAgentSecret();
    const requestId = randomUUID();
    await this.repository.transaction(async (tx) => {
      const locked = await tx.lockDevice(input.serial);
      if (!locked) throw new EnrollmentError('enrollment_token_invalid');
      await tx.supersedePending(locked.id, input.purpose, input.user);
      await tx.insertRequest({
        id: requestId,
        deviceId: locked.id,
        purpose: input.purpose,
        status: 'pending',
        ...csrColumns(csr),
        requesterKind: 'user',
        requestedBy: input.user,
        userIdentity: input.user,
        upn: input.upn ?? null,
        sid: input.sid ?? null,
        registeredDuringBlock: locked.blocked,
        agentSecretHash: secret.hash,
        agentVersion: input.agentVersion ?? null,
        sourceAuth: 'not_checked',
        attestation: 'none',
      });
    });
    return { requestId, agentSecret: secret.secret };
  }
}
