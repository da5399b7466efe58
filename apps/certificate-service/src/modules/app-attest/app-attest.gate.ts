import { Injectable, Logger } from '@nestjs/common';
import type { AppAttestPolicy } from '../settings/app-attest.policy';
import { AppAttestError } from './app-attest.errors';
import { AppAttestRepository } from './app-attest.repository';

/** Verdict of the gate, recorded on the request as `app_attest`. */
export type AppAttestGateVerdict = 'verified' | 'missing' | 'invalid' | 'not_applicable';

export interface AppAttestGateInput {
  /** As the agent reports it; the gate applies to `macos` and `darwin` only. */
  platform?: string;
  /** macOS version the agent reports (`27`, `27.0.1`). */
  osVersion?: string;
  serial: string;
  /** `attestation_id` of `POST /enroll/app-attest`. */
  appAttestationId?: string;
}

/** First macOS release able to attest an app key (specification). */
export const APP_ATTEST_MIN_MACOS = 27;
const MAC_PLATFORMS = new Set(['macos', 'darwin']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function macosMajor(version: string | undefined): number | null {
  const match = /^(\d{1,4})(?:\.\d{1,4}){0,3}$/.exec(version?.trim() ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Applies `app_attest_enforcement` to an enrollment (called by `POST /enroll` before anything
 * is written): `off` looks at nothing; `advisory` returns the verdict and never refuses;
 * `required` refuses a Mac without a verified attestation, and a Mac before macOS 27 (or not
 * saying its version) always, with 403 `app_attest_required`. A valid attestation is consumed:
 * one enrollment, same serial.
 */
@Injectable()
export class AppAttestGate {
  private readonly logger = new Logger('AppAttestGate');

  constructor(private readonly repository: AppAttestRepository) {}

  /** `policy`: the stored `app_attest` policy, as the enrollment read it. */
  async check(input: AppAttestGateInput, policy: AppAttestPolicy): Promise<AppAttestGateVerdict> {
    const { enforcement } = policy;
    if (enforcement === 'off') return 'not_applicable';
    if (!MAC_PLATFORMS.has(input.platform?.trim().toLowerCase() ?? '')) return 'not_applicable';
    const major = macosMajor(input.osVersion);
    if (enforcement === 'required' && (major === null || major < APP_ATTEST_MIN_MACOS)) {
      return this.refuse(`macOS ${input.osVersion ?? '(version not sent)'} cannot attest (27+)`);
    }
    const verdict = await this.verdict(input);
    if (enforcement === 'required' && verdict !== 'verified') {
      return this.refuse(`attestation ${verdict}`);
    }
    return verdict;
  }

  private async verdict(input: AppAttestGateInput): Promise<AppAttestGateVerdict> {
    const id = input.appAttestationId;
    if (id === undefined) return 'missing';
    if (!UUID.test(id)) return 'invalid';
    return (await this.repository.consumeAttestation(id.toLowerCase(), input.serial))
      ? 'verified'
      : 'invalid';
  }

  private refuse(reason: string): never {
    this.logger.warn({ reason }, 'enrollment refused: app attestation required');
    throw new AppAttestError('app_attest_required');
  }
}
