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
 * its evidence (quote over the nonce, certify of the key, activated credential).
 */
export async function sendEnrollment(
  ctx: AgentContext,
  client: CertsvcClient,
  key: DeviceKey,
  facts: EnrollFacts,
  tpm?: TpmEvidenceSource,
): Promise<EnrollAnswer> {
  const csr = await buildCsrPem(facts.serial, key.publicKey, key.signer);
  try {
    return await withRetry(ctx, 'enrollment', async () => {
      const body: EnrollBody = {
        csr,
        serial: facts.serial,
        nonce: '',
        agent_version: AGENT_VERSION,
        platform: facts.platform,
        hostname: facts.hostname,
        ...(facts.enrollmentToken ? { enrollment_token: facts.enrollmentToken } : {}),
      };
      if (!tpm) return client.enroll({ ...body, nonce: (await client.nonce()).nonce });
      const answer = await client.nonce({ serial: facts.serial, tpm: tpm.device.nonceBody() });
      const activated = answer.activation
        ? await tpm.device.activate(answer.activation.credential_file)
        : undefined;
      const evidence = await tpm.device.evidence(answer.nonce, tpm.keyName);
      return client.enroll({
        ...body,
        nonce: answer.nonce,
        tpm: {
          ...tpm.device.nonceBody(),
          ek_chain: tpm.ekChain,
          ...evidence,
          ...(activated ? { activated_credential: activated } : {}),
        },
      });
    });
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
  return new AgentExit(
    ExitCode.refused,
    `the service refused the enrollment of ${serial}: ${error.status} ${error.code}: ${error.message}`,
  );
}
