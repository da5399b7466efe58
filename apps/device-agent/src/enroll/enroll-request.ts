import { ApiError } from '../api/api-errors';
import type { EnrollAnswer, EnrollBody } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { buildCsrPem } from '../crypto/csr';
import type { DeviceKey } from '../state/key-store';
import type { TpmDevice } from '../tpm/tpm-device';
import type { DeviceTrust } from './continuity-key';

export interface EnrollFacts {
  readonly serial: string;
  readonly platform: string;
  readonly hostname: string;
  readonly enrollmentToken?: string;
}

/** TPM evidence for the enrollment: the device, which key it certifies, the EK intermediates. */
export interface TpmEvidenceSource {
  readonly device: TpmDevice;
  readonly keyName: 'key' | 'renewal-key';
  /** base64 DER of the EK certificate's intermediates (`--tpm-ek-chain`). */
  readonly ekChain: readonly string[];
}

/**
 * `POST /enroll/nonce` then `POST /enroll` with a CSR of `key` (CN = serial). A fresh nonce for
 * every attempt (a nonce is used once). Only the CSR (the public key) is sent; with a TPM also
 * its evidence (quote over the nonce, certify of the key, activated credential). Every body
 * carries a fresh source nonce and is signed with the CSR key (`X-Enroll-Source-Signature`,
 * source-auth), and the continuity key with its signature over the nonce. A refused
 * enrollment token is recovered with the continuity key (or the AK) and the enrollment sent
 * once more; the answer then names the recovered token.
 */
export async function sendEnrollment(
  ctx: AgentContext,
  client: CertsvcClient,
  key: DeviceKey,
  facts: EnrollFacts,
  tpm?: TpmEvidenceSource,
  trust?: DeviceTrust,
): Promise<EnrollAnswer> {
  const csr = await buildCsrPem(facts.serial, key.publicKey, key.signer);
  const attempt = (enrollmentToken?: string) =>
    withRetry(ctx, 'enrollment', async () => {
      const body: EnrollBody = {
        csr,
        serial: facts.serial,
        nonce: '',
        agent_version: AGENT_VERSION,
        platform: facts.platform,
        hostname: facts.hostname,
        ...(enrollmentToken ? { enrollment_token: enrollmentToken } : {}),
      };
      if (tpm) {
        const answer = await client.nonce({ serial: facts.serial, tpm: tpm.device.nonceBody() });
        const activated = answer.activation
          ? await tpm.device.activate(answer.activation.credential_file)
          : undefined;
        const evidence = await tpm.device.evidence(answer.nonce, tpm.keyName);
        body.nonce = answer.nonce;
        body.tpm = {
          ...tpm.device.nonceBody(),
          ek_chain: tpm.ekChain,
          ...evidence,
          ...(activated ? { activated_credential: activated } : {}),
        };
      } else {
        body.nonce = (await client.nonce()).nonce;
      }
      body.source_nonce = (await client.sourceNonce()).nonce;
      if (trust) {
        body.continuity_key = trust.continuityKey;
        body.continuity_signature = await trust.continuitySignature(facts.serial, body.nonce);
      }
      return client.enroll(body, key.signer);
    });
  try {
    try {
      return await attempt(facts.enrollmentToken);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'enrollment_token_invalid' || !trust) {
        throw error;
      }
      ctx.logger.warn('the enrollment token was refused; recovering it', { serial: facts.serial });
      const recovered = await trust.recoverToken(ctx, client, facts.serial);
      return { ...(await attempt(recovered)), enrollment_token: recovered };
    }
  } catch (error) {
    if (error instanceof ApiError) throw enrollRefusal(error, facts.serial);
    throw error;
  }
}

function enrollRefusal(error: ApiError, serial: string): AgentExit {
  if (error.code === 'enrollment_token_invalid') {
    return new AgentExit(
      ExitCode.refused,
      `the service refused the enrollment of ${serial} (enrollment_token_invalid): the serial is ` +
        'already registered; pass its token with --enrollment-token (an administrator can rotate it)',
    );
  }
  if (error.code === 'enroll_source_auth_failed') {
    return new AgentExit(
      ExitCode.refused,
      `the service's source-auth policy refused the enrollment of ${serial} ` +
        '(enroll_source_auth_failed): under `strict` a Linux or Windows device must enroll with ' +
        '--tpm (a TPM-resident key with attestation); a device whose TPM or continuity key is ' +
        'pinned must present the same one (an administrator can release the pin)',
    );
  }
  return new AgentExit(
    ExitCode.refused,
    `the service refused the enrollment of ${serial}: ${error.status} ${error.code}: ${error.message}`,
  );
}
