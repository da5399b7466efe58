import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setSerial } from '../../app/request-context/request-context';
import { tokenMatches } from '../devices/device-credentials.service';
import { deviceIdentityKey } from '../devices/device-identity';
import { DevicesRepository } from '../devices/devices.repository';
import { issueEnrollmentToken } from '../devices/enrollment-token';
import { parseCsr } from '@platform/pki';
import { PolicySettingsService } from '../settings/policy-settings.service';
import { issueAgentSecret } from './agent-secret';
import { EnrollmentError } from './enrollment.errors';
import { EnrollmentRepository } from './enrollment.repository';
import { EnrollNoncesService } from './enroll-nonces.service';
import { SourceAuthGate, type SourceEvidence } from './source-auth/source-auth.gate';
import { AppAttestGate } from '../app-attest/app-attest.gate';

export interface EnrollInput {
  csr: string;
  serial: string;
  nonce: string;
  enrollmentToken?: string;
  agentVersion?: string;
  platform?: string;
  hostname?: string;
  sourceNonce?: string;
  sourceSignature?: string;
  rawBody: Buffer;
  osVersion?: string;
  appAttestationId?: string;
}

export interface EnrollResult {
  requestId: string;
  agentSecret: string;
  /** Only when the device was created by this call. */
  enrollmentToken?: string;
}

/**
 * `POST /enroll`: registers the device (first time) and a `wifi` request awaiting a
 * decision. Every check runs before anything is written.
 */
@Injectable()
export class EnrollmentService {
  constructor(
    private readonly repository: EnrollmentRepository,
    private readonly devices: DevicesRepository,
    private readonly nonces: EnrollNoncesService,
    private readonly policies: PolicySettingsService,
    private readonly sourceAuth: SourceAuthGate,
    private readonly appAttest: AppAttestGate,
  ) {}

  async enroll(input: EnrollInput): Promise<EnrollResult> {
    setSerial(input.serial);
    const csr = parseCsr(input.csr);
    const evidence: SourceEvidence = {
      agentVersion: input.agentVersion,
      rawBody: input.rawBody,
      signature: input.sourceSignature,
      sourceNonce: input.sourceNonce,
      publicKeySpkiDer: csr.publicKeySpkiDer,
    };
    const sourceAuth = await this.sourceAuth.check(
      (await this.policies.enrollSourceAuth()).value,
      evidence,
    );
    const known = await this.devices.findBySerial(input.serial);
    if (known && !tokenMatches(known, input.enrollmentToken)) {
      throw new EnrollmentError('enrollment_token_invalid');
    }
    if (!(await this.nonces.consume('enroll', input.nonce)))
      throw new EnrollmentError('nonce_invalid');
    const appAttest = await this.appAttest.check(input);

    const now = new Date();
    const token = issueEnrollmentToken();
    const secret = issueAgentSecret();
    const requestId = randomUUID();
    const created = await this.repository.transaction(async (tx) => {
      const inserted = await tx.insertDeviceIfAbsent({
        id: randomUUID(),
        serial: input.serial,
        enrollmentTokenHash: token.hash,
        identityKey: deviceIdentityKey({ serial: input.serial, publicKeyHash: csr.publicKeyHash }),
        assignedPurposes: ['wifi'],
        enrollKeyHash: csr.publicKeyHash,
        agentVersion: input.agentVersion ?? null,
        platform: input.platform ?? null,
        hostname: input.hostname ?? null,
        lastSeenAt: now,
      });
      const device = await tx.lockDevice(input.serial);
      if (!device || (!inserted && !tokenMatches(device, input.enrollmentToken))) {
        throw new EnrollmentError('enrollment_token_invalid');
      }
      if (!inserted) {
        await tx.touchDevice(device.id, {
          agentVersion: input.agentVersion ?? null,
          platform: input.platform ?? null,
          hostname: input.hostname ?? null,
          enrollKeyHash: csr.publicKeyHash,
          at: now,
        });
      }
      await tx.supersedePending(device.id, 'wifi', null);
      await tx.insertRequest({
        id: requestId,
        deviceId: device.id,
        purpose: 'wifi',
        status: 'pending',
        csrDer: csr.der,
        publicKeySpkiDer: csr.publicKeySpkiDer,
        publicKeyHash: csr.publicKeyHash,
        keyAlgorithm: csr.keyAlgorithm,
        subjectCommonName: csr.subjectCommonName ?? null,
        requesterKind: 'device',
        requestedBy: `device:${input.serial}`,
        userIdentity: null,
        upn: null,
        sid: null,
        registeredDuringBlock: device.blocked,
        agentSecretHash: secret.hash,
        agentVersion: input.agentVersion ?? null,
        sourceAuth,
        appAttest,
      });
      return inserted;
    });
    return {
      requestId,
      agentSecret: secret.secret,
      ...(created ? { enrollmentToken: token.token } : {}),
    };
  }
}
