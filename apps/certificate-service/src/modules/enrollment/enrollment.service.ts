import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { setSerial } from '../../app/request-context/request-context';
import { tokenMatches } from '../devices/device-credentials.service';
import { deviceIdentityKey } from '../devices/device-identity';
import { issueEnrollmentToken } from '../devices/enrollment-token';
import { parseCsr } from '@platform/pki';
import type { DeviceEntity } from '../devices/device.entity';
import type { HardwarePins } from '../devices/device-writes.repository';
import type { TpmEvidence } from '../tpm-attestation/tpm-evidence';
import { EnrollAttestationService } from './enroll-attestation.service';
import { issueAgentSecret } from './agent-secret';
import { EnrollmentError } from './enrollment.errors';
import { EnrollmentRepository } from './enrollment.repository';
import { EnrollNoncesService } from './enroll-nonces.service';
import { AppAttestGate } from '../app-attest/app-attest.gate';
import { csrColumns, type NewRequest } from '../requests/request-writes.repository';

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
  /** TPM evidence (body field `tpm`). */
  tpm?: TpmEvidence;
  /** Continuity key (SPKI PEM) and its signature over `continuityMessage`. */
  continuity?: { publicKeyPem: string; signature: Buffer };
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
 * decision. Every check runs before anything is written. Round trips of a first enrollment
 * (docs/benchmarks.md, issue 34): the device and both policies in one query, then nonce,
 * device, request and event in one statement.
 */
@Injectable()
export class EnrollmentService {
  constructor(
    private readonly repository: EnrollmentRepository,
    private readonly nonces: EnrollNoncesService,
    private readonly attestation: EnrollAttestationService,
    private readonly appAttest: AppAttestGate,
  ) {}

  async enroll(input: EnrollInput): Promise<EnrollResult> {
    setSerial(input.serial);
    const csr = parseCsr(input.csr);
    const { known, ...policies } = await this.repository.lookup(input.serial);
    const attestation = await this.attestation.assess({
      serial: input.serial,
      nonce: input.nonce,
      platform: input.platform,
      agentVersion: input.agentVersion,
      rawBody: input.rawBody,
      sourceSignature: input.sourceSignature,
      sourceNonce: input.sourceNonce,
      csrPublicKeySpkiDer: csr.publicKeySpkiDer,
      tpm: input.tpm,
      continuity: input.continuity,
      sourceAuthPolicy: policies.sourceAuth,
      pinned: known
        ? {
            ekCertSerial: known.tpmEkCertSerial,
            akPublic: known.tpmAkPublic,
            continuityKey: known.continuityKey,
          }
        : null,
    });
    const sourceAuth = attestation.sourceAuth;
    if (known && !tokenMatches(known, input.enrollmentToken)) {
      throw new EnrollmentError('enrollment_token_invalid');
    }
    const appAttest = await this.appAttest.check(input, policies.appAttest);
    const pins = {
      tpmEkCertSerial: attestation.tpm?.ekSerial ?? null,
      tpmAkPublic: attestation.tpm?.akPublic ?? null,
      continuityKey: attestation.continuityKey,
    };

    const now = new Date();
    const token = issueEnrollmentToken();
    const secret = issueAgentSecret();
    const requestId = randomUUID();
    const newDevice = {
      id: randomUUID(),
      serial: input.serial,
      enrollmentTokenHash: token.hash,
      identityKey: deviceIdentityKey({
        ekCertSerial: pins.tpmEkCertSerial,
        serial: input.serial,
        publicKeyHash: csr.publicKeyHash,
      }),
      assignedPurposes: ['wifi' as const],
      enrollKeyHash: csr.publicKeyHash,
      agentVersion: input.agentVersion ?? null,
      platform: input.platform ?? null,
      hostname: input.hostname ?? null,
      lastSeenAt: now,
      ...pins,
    };
    const request = (deviceId: string, blocked: boolean): NewRequest => ({
      id: requestId,
      deviceId,
      purpose: 'wifi',
      status: 'pending',
      ...csrColumns(csr),
      requesterKind: 'device',
      requestedBy: `device:${input.serial}`,
      userIdentity: null,
      upn: null,
      sid: null,
      registeredDuringBlock: blocked,
      agentSecretHash: secret.hash,
      agentVersion: input.agentVersion ?? null,
      sourceAuth,
      attestation: attestation.tpm ? 'tpm' : 'none',
      appAttest,
    });
    const issued = { requestId, agentSecret: secret.secret };

    if (!known) {
      // Not seen a moment ago: nonce, device and request in one statement. Created meanwhile
      // (nonce used, nothing inserted): the transaction below, as for a known device.
      const first = await this.repository.enrollNewDevice(
        this.nonces.claim('enroll', input.nonce),
        newDevice,
        request(newDevice.id, false),
      );
      if (!first.nonceConsumed) throw new EnrollmentError('nonce_invalid');
      if (first.inserted) return { ...issued, enrollmentToken: token.token };
    } else if (!(await this.nonces.consume('enroll', input.nonce))) {
      throw new EnrollmentError('nonce_invalid');
    }

    const created = await this.repository.transaction(async (tx) => {
      const inserted = await tx.insertDeviceIfAbsent(newDevice);
      const device = await tx.lockDevice(input.serial);
      if (!device || (!inserted && !tokenMatches(device, input.enrollmentToken))) {
        throw new EnrollmentError('enrollment_token_invalid');
      }
      if (!inserted && !samePins(device, pins)) {
        // Another enrollment pinned different keys since the checks: refused like them.
        throw new EnrollmentError('enroll_source_auth_failed');
      }
      if (!inserted) {
        await tx.pinHardwareKeys(device.id, pins);
        await tx.touchDevice(device.id, {
          agentVersion: input.agentVersion ?? null,
          platform: input.platform ?? null,
          hostname: input.hostname ?? null,
          enrollKeyHash: csr.publicKeyHash,
          at: now,
        });
      }
      await tx.supersedePending(device.id, 'wifi', null);
      await tx.insertRequest(request(device.id, device.blocked));
      return inserted;
    });
    return { ...issued, ...(created ? { enrollmentToken: token.token } : {}) };
  }
}

/** Whether the locked device's pins still agree with what the checks verified against. */
function samePins(device: DeviceEntity, pins: HardwarePins): boolean {
  const agree = <T>(pinned: T | null, proved: T | null, eq: (a: T, b: T) => boolean): boolean =>
    pinned === null || proved === null || eq(pinned, proved);
  return (
    agree(device.tpmEkCertSerial, pins.tpmEkCertSerial, (a, b) => a === b) &&
    agree(device.tpmAkPublic, pins.tpmAkPublic, (a, b) => a.equals(b)) &&
    agree(device.continuityKey, pins.continuityKey, (a, b) => a.trim() === b.trim())
  );
}
