import { Injectable, Logger } from '@nestjs/common';
import { setSerial } from '../../app/request-context/request-context';
import { AuditService } from '../audit/audit.service';
import type { DeviceEntity } from '../devices/device.entity';
import { DevicesRepository } from '../devices/devices.repository';
import { issueEnrollmentToken } from '../devices/enrollment-token';
import { EnrollNoncesService } from '../enrollment/enroll-nonces.service';
import {
  MAX_RECOVER_SIGNATURE_BYTES,
  recoverMessage,
  verifyAkProof,
  verifyContinuityProof,
  type ProofFailure,
  type ProofResult,
  type RecoverKey,
} from './recover-proof';
import { TokenRecoverError } from './token-recover.errors';
import { TokenRecoverRepository } from './token-recover.repository';

export interface TokenRecoverInput {
  serial: string;
  nonce: string;
  key: RecoverKey;
  /** base64 (validated by the DTO). */
  signature: string;
}

/** Why a recovery was refused: server log only. */
type RecoverFailure = ProofFailure | 'nonce_invalid' | 'device_unknown' | 'key_not_pinned';

type Outcome = { ok: true; token: string } | { ok: false; cause: RecoverFailure };

/**
 * `POST /enroll/token-recover`: a fresh signature over a server nonce with a key pinned to the
 * device buys a new enrollment token; the old one stops working in the same transaction.
 */
@Injectable()
export class TokenRecoverService {
  private readonly logger = new Logger('TokenRecover');

  constructor(
    private readonly nonces: EnrollNoncesService,
    private readonly repository: TokenRecoverRepository,
    private readonly devices: DevicesRepository,
    private readonly audit: AuditService,
  ) {}

  async recover(input: TokenRecoverInput): Promise<{ serial: string; enrollmentToken: string }> {
    // The nonce goes first and is spent by every attempt that names it, so a refused proof
    // cannot be retried with the same nonce (one fresh nonce per guess).
    const outcome: Outcome = (await this.nonces.consume('enroll', input.nonce))
      ? await this.rotate(input)
      : { ok: false, cause: 'nonce_invalid' };
    if (!outcome.ok) {
      this.logger.warn(
        { serial: input.serial, key: input.key, cause: outcome.cause },
        'enrollment token recovery refused',
      );
      throw new TokenRecoverError();
    }
    setSerial(input.serial);
    await this.audit.record({
      action: 'device.enrollment_token_recover',
      actor: { kind: 'device', serial: input.serial },
      target: input.serial,
      details: { key: input.key },
    });
    this.logger.log({ serial: input.serial, key: input.key }, 'enrollment token recovered');
    return { serial: input.serial, enrollmentToken: outcome.token };
  }

  private rotate(input: TokenRecoverInput): Promise<Outcome> {
    const signature = Buffer.from(input.signature, 'base64');
    const message = recoverMessage(input.key, input.serial, input.nonce);
    return this.repository.transaction(async (em): Promise<Outcome> => {
      const device = await this.repository.lockDevice(em, input.serial);
      if (!device) return { ok: false, cause: 'device_unknown' };
      const proof = checkProof(device, input.key, message, signature);
      if (!proof.ok) return proof;
      const issued = issueEnrollmentToken();
      await this.devices.update(
        device.id,
        { enrollmentTokenHash: issued.hash, enrollmentTokenRotatedAt: new Date() },
        em,
      );
      return { ok: true, token: issued.token };
    });
  }
}

function checkProof(
  device: DeviceEntity,
  key: RecoverKey,
  message: Buffer,
  signature: Buffer,
): ProofResult | { ok: false; cause: 'key_not_pinned' } {
  if (signature.length === 0 || signature.length > MAX_RECOVER_SIGNATURE_BYTES) {
    return { ok: false, cause: 'signature_invalid' };
  }
  if (key === 'continuity') {
    if (!device.continuityKey) return { ok: false, cause: 'key_not_pinned' };
    return verifyContinuityProof(device.continuityKey, message, signature);
  }
  if (!device.tpmAkPublic || device.tpmAkPublic.length === 0) {
    return { ok: false, cause: 'key_not_pinned' };
  }
  return verifyAkProof(device.tpmAkPublic, message, signature);
}
