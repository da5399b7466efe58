import { Injectable } from '@nestjs/common';
import { DevicesRepository } from '../devices/devices.repository';
import {
  TpmChallengeService,
  type ActivationChallenge,
} from '../tpm-attestation/tpm-challenge.service';
import { EnrollNoncesService } from './enroll-nonces.service';

export interface IssuedEnrollNonce {
  nonce: string;
  expiresAt: Date;
  /** Credential-activation challenge, for a first attested enroll (or a new AK). */
  activation: ActivationChallenge | null;
}

/**
 * `POST /enroll/nonce`: a one-time nonce, and with TPM evidence in the body a
 * credential-activation challenge bound to it — unless the device (by `serial`) already
 * has this AK pinned, when the quote over the nonce is proof enough.
 */
@Injectable()
export class EnrollNonceIssuer {
  constructor(
    private readonly nonces: EnrollNoncesService,
    private readonly devices: DevicesRepository,
    private readonly challenges: TpmChallengeService,
  ) {}

  async issue(request: {
    serial?: string;
    tpm?: { ekCertificate: Buffer; akPublic: Buffer };
  }): Promise<IssuedEnrollNonce> {
    let activation: ActivationChallenge | null = null;
    if (request.tpm) {
      const device = request.serial ? await this.devices.findBySerial(request.serial) : null;
      activation = this.challenges.challenge(
        request.tpm,
        device ? { ekCertSerial: device.tpmEkCertSerial, akPublic: device.tpmAkPublic } : null,
      );
    }
    const { nonce, expiresAt } = await this.nonces.issue('enroll', new Date(), activation?.stored);
    return { nonce, expiresAt, activation };
  }
}
