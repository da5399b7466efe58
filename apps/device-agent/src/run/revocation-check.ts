import { ApiError } from '../api/api-errors';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { certificatesOf, normalizeSerial, parseCrl } from '../crypto/crl';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';

/**
 * Is the installed certificate revoked? Reads the CRLs of `POST /enroll/crl`, uses only those
 * signed by a CA of the delivered bundle, and looks for the certificate's serial. Revoked:
 * state `revoked`, exit 3. No CRL (404 `crl_unavailable`): nothing to check.
 */
export async function checkRevocation(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
): Promise<AgentStatus> {
  if (!status.certificate_serial) return status;
  let crls;
  try {
    crls = (await withRetry(ctx, 'CRL', () => client.crls())).crls;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.logger.debug('no CRL to check', { code: error.code });
    return status;
  }
  const issuers = certificatesOf(dir.read(StateFile.caBundle) ?? '');
  const serial = normalizeSerial(status.certificate_serial);
  for (const crl of crls) {
    let parsed;
    try {
      parsed = parseCrl(Buffer.from(crl.pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
    } catch (error) {
      ctx.logger.warn('CRL not readable, ignored', {
        issuer: crl.issuer,
        cause: (error as Error).message,
      });
      continue;
    }
    if (!parsed.signedBy(issuers)) {
      ctx.logger.warn('CRL not signed by a CA of the bundle, ignored', { issuer: crl.issuer });
      continue;
    }
    if (parsed.revoked.has(serial)) {
      writeStatus(
        dir,
        { ...status, state: 'revoked', reason: 'certificate_revoked' },
        ctx.clock.now(),
      );
      throw new AgentExit(
        ExitCode.refused,
        `certificate ${status.certificate_serial} is revoked (CRL of ${crl.issuer}); state revoked: ` +
          'once an administrator unblocks the device, `enroll` again (docs/agent.md, "States")',
      );
    }
  }
  ctx.logger.debug('certificate not revoked', { certificate_serial: status.certificate_serial });
  return status;
}
