import { ApiError } from '../api/api-errors';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { loadOrCreateKey } from '../state/key-store';
import { StateFile, type StateDir } from '../state/state-dir';
import type { TpmDevice } from '../tpm/tpm-device';

/**
 * The device's long-lived keys beyond the CSR key (docs/agent.md, "Continuity key and token
 * recovery"): the continuity key (in the TPM with `--tpm`, else `continuity-key.pem`), sent
 * with every enrollment and pinned by the service at the first, and the token recovery that
 * proves it (or the TPM's AK) when the enrollment token is lost or no longer accepted.
 */
export interface DeviceTrust {
  /** SPKI PEM of the continuity key. */
  readonly continuityKey: string;
  /** Signature over `certsvc-continuity/v1 NUL serial NUL nonce` (SHA-256, DER ECDSA). */
  continuitySignature(serial: string, nonce: string): Promise<string>;
  /** A new enrollment token, stored as `enrollment-token`; exit 3 when every proof is refused. */
  recoverToken(ctx: AgentContext, client: CertsvcClient, serial: string): Promise<string>;
}

export async function openDeviceTrust(dir: StateDir, tpm?: TpmDevice): Promise<DeviceTrust> {
  const key = tpm ? await tpm.key('continuity') : loadOrCreateKey(dir, StateFile.continuityKey);
  const sign = (message: Buffer) => key.signer(message);
  const slots: { name: 'continuity' | 'ak'; sign: (message: Buffer) => Promise<Buffer> }[] = [
    { name: 'continuity', sign },
  ];
  if (tpm) slots.push({ name: 'ak', sign: (message) => tpm.signWithAk(message) });
  return {
    continuityKey: key.publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    continuitySignature: async (serial, nonce) =>
      (await sign(continuityMessage(serial, nonce))).toString('base64'),
    recoverToken: async (ctx, client, serial) => {
      for (const slot of slots) {
        try {
          const answer = await withRetry(ctx, 'token recovery', async () => {
            const { nonce } = await client.nonce();
            const signature = await slot.sign(recoverMessage(slot.name, serial, nonce));
            return client.tokenRecover({
              serial,
              nonce,
              key: slot.name,
              signature: signature.toString('base64'),
            });
          });
          dir.write(StateFile.enrollmentToken, answer.enrollment_token);
          ctx.logger.info('enrollment token recovered', { serial, key: slot.name });
          return answer.enrollment_token;
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          ctx.logger.warn('token recovery refused', { serial, key: slot.name, code: error.code });
        }
      }
      throw new AgentExit(
        ExitCode.refused,
        `the service refused the enrollment token of ${serial} and its recovery with the ` +
          `${slots.map((s) => s.name).join(' or the ')} key (token_recover_failed): an administrator ` +
          'rotates the token (POST /devices/{serial}/rotate-enrollment-token) for `enroll --enrollment-token`',
      );
    },
  };
}

/** What the continuity signature covers (tpm-attestation.md, "Continuity key"). */
export function continuityMessage(serial: string, nonce: string): Buffer {
  return Buffer.from(['certsvc-continuity/v1', serial, nonce].join('\0'), 'utf8');
}

/** What a token recovery proof covers (enrollment.md, "Recovering the enrollment token"). */
export function recoverMessage(key: 'continuity' | 'ak', serial: string, nonce: string): Buffer {
  return Buffer.from(['certsvc-token-recover/v1', key, serial, nonce].join('\0'), 'utf8');
}
