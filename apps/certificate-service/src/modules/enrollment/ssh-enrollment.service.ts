import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { parseSshPublicKey, type SshKeyType } from '@platform/pki';
import { setSerial } from '../../app/request-context/request-context';
import { DeviceCredentials } from '../devices/device-credentials.service';
import { DevicesRepository } from '../devices/devices.repository';
import { purposeAllowed } from '../devices/purpose-access';
import { issueAgentSecret } from './agent-secret';
import { EnrollmentError } from './enrollment.errors';
import { EnrollmentRepository } from './enrollment.repository';

export interface SshEnrollInput {
  serial: string;
  enrollmentToken: string;
  publicKey: string;
  agentVersion?: string;
}

export interface SshEnrollment {
  requestId: string;
  agentSecret: string;
  keyType: SshKeyType;
  fingerprint: string;
}

/**
 * `POST /enroll/ssh`: an SSH certificate request of a known device, authenticated like
 * `/enroll/user` (serial + enrollment token). The public key is validated here and stored as
 * the request's `csr_der` (its blob); principals are decided at approval from the owner.
 */
@Injectable()
export class SshEnrollmentService {
  constructor(
    private readonly repository: EnrollmentRepository,
    private readonly devices: DevicesRepository,
    private readonly credentials: DeviceCredentials,
  ) {}

  async enroll(input: SshEnrollInput): Promise<SshEnrollment> {
    setSerial(input.serial);
    const device = await this.credentials.authenticate(input.serial, input.enrollmentToken);
    const key = parseSshPublicKey(input.publicKey);
    const overrides = (await this.devices.overridesOf([device.id])).get(device.id) ?? {};
    if (!purposeAllowed('ssh', device.assignedPurposes, overrides)) {
      throw new EnrollmentError('purpose_not_assigned');
    }
    const secret = issueAgentSecret();
    const requestId = randomUUID();
    await this.repository.transaction(async (tx) => {
      const locked = await tx.lockDevice(input.serial);
      if (!locked) throw new EnrollmentError('enrollment_token_invalid');
      await tx.supersedePending(locked.id, 'ssh', null);
      await tx.insertRequest({
        id: requestId,
        deviceId: locked.id,
        purpose: 'ssh',
        status: 'pending',
        csrDer: key.blob,
        publicKeySpkiDer: key.spkiDer,
        publicKeyHash: createHash('sha256').update(key.spkiDer).digest('hex'),
        keyAlgorithm: key.keyAlgorithm,
        subjectCommonName: null,
        requesterKind: 'device',
        requestedBy: `device:${locked.serial}`,
        userIdentity: null,
        upn: null,
        sid: null,
        registeredDuringBlock: locked.blocked,
        agentSecretHash: secret.hash,
        agentVersion: input.agentVersion ?? null,
        sourceAuth: 'not_checked',
        attestation: 'none',
      });
    });
    return {
      requestId,
      agentSecret: secret.secret,
      keyType: key.type,
      fingerprint: key.fingerprint,
    };
  }
}
