import { ApiError } from '../api/api-errors';
import type { EnrollAnswer } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { AGENT_VERSION } from '../core/version';
import { buildCsrPem, softwareSigner } from '../crypto/csr';
import type { DeviceKey } from '../state/key-store';

export interface EnrollFacts {
  readonly serial: string;
  readonly platform: string;
  readonly hostname: string;
  readonly enrollmentToken?: string;
}

/**
 * `POST /enroll/nonce` then `POST /enroll` with a CSR of `key` (CN = serial). A fresh nonce for
 * every attempt (a nonce is used once). Only the CSR (the public key) is sent.
 */
export async function sendEnrollment(
  ctx: AgentContext,
  client: CertsvcClient,
  key: DeviceKey,
  facts: EnrollFacts,
): Promise<EnrollAnswer> {
  const csr = await buildCsrPem(facts.serial, key.publicKey, softwareSigner(key.privateKey));
  try {
    return await withRetry(ctx, 'enrollment', async () =>
      client.enroll({
        csr,
        serial: facts.serial,
        nonce: await client.nonce(),
        agent_version: AGENT_VERSION,
        platform: facts.platform,
        hostname: facts.hostname,
        ...(facts.enrollmentToken ? { enrollment_token: facts.enrollmentToken } : {}),
      }),
    );
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
